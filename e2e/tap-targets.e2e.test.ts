import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, serverIdByName, signInWithToken } from './api';
import { expectNoPageErrors, launchBrowser, newPage, PHONE } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Every control a thumb aims at on a phone, with its size, if under 44 px either way. Exempt, as
 * WCAG 2.5.5 exempts them: links inside running text (laid out inline, in a line of other text),
 * a card's title link (the whole card is its target), and the skip link (1 px until focused).
 */
const smallTargets = () =>
  Array.from(document.querySelectorAll<HTMLElement>('a, button, select, [role="tab"], input'))
    .filter((el) => {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || getComputedStyle(el).visibility === 'hidden') return false;
      if (el.matches('input[type="checkbox"], input[type="radio"], input[type="file"], input[type="hidden"]')) return false;
      if (el.tagName === 'A' && getComputedStyle(el).display === 'inline') return false;
      return r.height < 44 || r.width < 44;
    })
    .map((el) => {
      const r = el.getBoundingClientRect();
      const name = (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 40);
      return `${el.tagName.toLowerCase()} "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`;
    });

describe('tap targets on a phone', () => {
  it('are at least 44 px on the public pages, the menu and the footer', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: PHONE });
    const server = await serverIdByName('Los Santos Legacy RP');
    for (const path of ['/', '/home', '/search', '/list', `/servers/${server}`, '/login', '/register', '/subscriptions']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(smallTargets), path).toEqual([]);
    }
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    expect(await page.evaluate(smallTargets), 'menu').toEqual([]);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('are at least 44 px on the pages of a logged-in player', async () => {
    const player = await registerUser('player');
    const { context, page, errors } = await newPage(browser, { viewport: PHONE });
    await signInWithToken(page, player.token, '/profile');
    for (const path of ['/profile', '/notifications']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(smallTargets), path).toEqual([]);
    }
    expectNoPageErrors(errors);
    await context.close();
  });
});
