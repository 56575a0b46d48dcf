import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerUser } from './api';
import { DESKTOP, PHONE, expectNoPageErrors, launchBrowser, newPage, screenshot, signIn, uniqueName } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('live status from the game', () => {
  it('an owner connects a game address on the dashboard: private addresses are refused with the reason', async () => {
    const owner = await registerUser('server_owner');
    const server = await api<{ id: string }>('POST', '/api/servers', { name: uniqueName('Status RP'), statusMessage: 'Live' }, owner.token);
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await newPage(browser, { viewport });
      await signIn(page, owner);
      await page.goto(`/dashboard/${server.id}`);
      const panel = page.getByTestId('live-status');
      await panel.waitFor();
      await expect.poll(() => page.getByTestId('live-status-line').textContent()).toContain('Not connected');
      await panel.getByLabel('Game').selectOption('minecraft');
      expect(await panel.getByLabel('Port').inputValue()).toBe('25565');
      await panel.getByLabel('Server address').fill('192.168.1.20');
      await panel.getByRole('button', { name: 'Save and check now' }).click();
      await expect
        .poll(() => panel.getByRole('alert').textContent())
        .toBe('This address points to a private or reserved network and cannot be queried.');
      await screenshot(page, `live-status-${viewport === PHONE ? 'phone' : 'desktop'}`);
      expectNoPageErrors(errors.filter((e) => !e.includes('400')));
      await context.close();
    }

    // The public page has the history section, empty until the game answers.
    const { context, page } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(`/servers/${server.id}`);
    await page.getByTestId('player-history').getByText('No live status yet').waitFor();
    await page.getByRole('button', { name: '7 days' }).click();
    expect(await page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    await context.close();
  });
});
