import GERMAN_ERRORS from '../src/web/i18n/catalogs/de/errors.json';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectNoPageErrors, launchBrowser, loginThroughForm, newPage, PHONE, screenshot } from './browser';
import { serverIdByName } from './api';
import { DEMO } from './accounts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SERVER = 'Los Santos Legacy RP';

describe('pages the server renders', () => {
  it('show a server page, /home, /list and /search with their content before any script runs', async () => {
    const { context, page } = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    await page.goto(`/servers/${await serverIdByName(SERVER)}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(SERVER);
    expect(await page.getByRole('heading', { name: 'Play, vote and review' }).count()).toBe(1);
    expect(await page.locator('[aria-busy="true"]').count()).toBe(0);
    await screenshot(page, 'rendered-server-page-without-scripts-phone');

    await page.goto('/home');
    expect(await page.getByRole('heading', { name: 'New servers' }).count()).toBe(1);
    expect(await page.locator('ul[aria-label="Top 10 servers by likes"] > li').count()).toBe(10);
    expect(await page.getByText(SERVER).count()).toBeGreaterThan(0);

    await page.goto('/list?tab=popular');
    expect(await page.getByRole('tab', { name: 'Most Popular' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tabpanel').getByRole('listitem').count()).toBeGreaterThan(0);

    // The search as it opens (no words or filters in the address): its first results and the filters.
    await page.goto('/search');
    expect(await page.getByTestId('search-results').getByRole('listitem').count()).toBeGreaterThan(0);
    // The filters are folded away on a phone, there all the same.
    expect(await page.locator('#search-filters h2').textContent()).toBe('Filters');
    expect(await page.locator('#search-filters button[aria-pressed]').count()).toBeGreaterThan(0);
    expect(await page.locator('[aria-busy="true"]').count()).toBe(0);
    await context.close();
  });

  it('stay on screen while the app starts, which draws the same page at once and then refreshes it', async () => {
    const id = await serverIdByName(SERVER);
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await newPage(browser, { viewport });
      // A visitor who moves at once (the app starts at the first move): before the page is idle,
      // so the refresh is the app's, not the boot script's count of a visitor who only reads.
      await page.addInitScript(() =>
        document.addEventListener('DOMContentLoaded', () => window.dispatchEvent(new MouseEvent('mousemove'))),
      );
      // Every frame from the first paint on: was the server's heading on screen?
      await page.addInitScript((name) => {
        const w = window as unknown as { framesWithout: number; framesWith: number };
        w.framesWithout = 0;
        w.framesWith = 0;
        const sample = () => {
          const shown = document.querySelector('main h1')?.textContent === name;
          if (shown) w.framesWith += 1;
          else if (w.framesWith > 0) w.framesWithout += 1;
          requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      }, SERVER);
      // Was the app running its page when it asked the API for the server again? Refreshing while
      // it hydrates would make it draw the page twice.
      await page.addInitScript((path) => {
        const w = window as unknown as { askedWhile: string[] };
        w.askedWhile = [];
        const fetch = window.fetch.bind(window);
        window.fetch = (input, init) => {
          const url = new URL(input instanceof Request ? input.url : String(input), location.href);
          if (url.pathname === path) w.askedWhile.push(document.documentElement.dataset.app ?? 'starting');
          return fetch(input, init);
        };
      }, `/api/servers/${id}`);
      const refreshed = page.waitForRequest((request) => new URL(request.url()).pathname === `/api/servers/${id}`);
      await page.goto(`/servers/${id}`);
      await refreshed;
      await page.waitForTimeout(300);
      const frames = await page.evaluate(() => {
        const w = window as unknown as { framesWithout: number; framesWith: number; askedWhile: string[] };
        return { framesWith: w.framesWith, framesWithout: w.framesWithout, askedWhile: w.askedWhile };
      });
      expect(frames.askedWhile, `${viewport.width}px`).toEqual(['started']);
      expect(frames.framesWith, `${viewport.width}px`).toBeGreaterThan(0);
      expect(frames.framesWithout, `${viewport.width}px: frames without the page after it first painted`).toBe(0);
      // The page works once the app has it: Like asks a visitor to log in.
      await page.getByRole('button', { name: 'Like', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('You must be logged in to perform this action.');
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('are hydrated as they are: the app takes over the very elements the HTML painted', async () => {
    for (const pathname of [`/servers/${await serverIdByName(SERVER)}`, '/home', '/list', '/list?tab=popular', '/search']) {
      const { context, page, errors } = await newPage(browser);
      const warnings: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'warning') warnings.push(msg.text());
      });
      await page.addInitScript(() =>
        document.addEventListener('DOMContentLoaded', () => {
          (window as unknown as { painted: Element | null }).painted = document.querySelector('main h1');
        }),
      );
      await page.goto(pathname);
      await page.locator('html[data-app="started"]').waitFor({ state: 'attached' });
      expect(
        await page.evaluate(() => (window as unknown as { painted: Element | null }).painted === document.querySelector('main h1')),
        pathname,
      ).toBe(true);
      // Every id an element points at is there (ids drawn on the server and in the browser agree).
      const dangling = await page.evaluate(() =>
        [...document.querySelectorAll('[aria-labelledby], [aria-controls], [aria-describedby]')]
          .flatMap((el) =>
            ['aria-labelledby', 'aria-controls', 'aria-describedby'].flatMap((name) => el.getAttribute(name)?.split(' ') ?? []),
          )
          .filter((id) => !document.getElementById(id)),
      );
      expect(dangling, pathname).toEqual([]);
      expect(
        warnings.filter((w) => w.includes('drawn again')),
        pathname,
      ).toEqual([]);
      expectNoPageErrors(errors);
      await context.close();
    }
  });

  it('are hydrated as they are when the page was rendered long before (from a cache): times count from the rendering, then from now', async () => {
    const { context, page, errors } = await newPage(browser);
    const warnings: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'warning') warnings.push(msg.text());
    });
    // The browser's clock three days after the server's: "checked 5 minutes ago" in the HTML would
    // read "3 days ago" there.
    await page.clock.setFixedTime(Date.now() + 3 * 86_400_000);
    await page.addInitScript(() =>
      document.addEventListener('DOMContentLoaded', () => {
        const w = window as unknown as { painted: Element | null; checked: string | null };
        w.painted = document.querySelector('main h1');
        const label = [...document.querySelectorAll('[data-testid="server-facts"] dt')].find((dt) => dt.textContent === 'Checked');
        w.checked = label?.nextElementSibling?.textContent ?? null;
      }),
    );
    await page.goto(`/servers/${await serverIdByName(SERVER)}`);
    await page.locator('html[data-app="started"]').waitFor({ state: 'attached' });
    const painted = await page.evaluate(() => {
      const w = window as unknown as { painted: Element | null; checked: string | null };
      return { same: w.painted === document.querySelector('main h1'), checked: w.checked };
    });
    expect(painted.same).toBe(true);
    expect(painted.checked).toMatch(/now|minute|hour|day/);
    expect(painted.checked).not.toMatch(/^3 days ago$/);
    const checked = page.getByTestId('server-facts').getByText('Checked', { exact: true }).locator('+ dd');
    await expect.poll(() => checked.textContent()).toMatch(/days ago$/);
    expect(warnings.filter((w) => w.includes('drawn again'))).toEqual([]);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('a visitor whose locale and clock differ gets the page in their language, and the app takes it over', async () => {
    const { context, page, errors } = await newPage(browser, { locale: 'de-DE', timezoneId: 'Pacific/Kiritimati' });
    await page.goto(`/servers/${await serverIdByName(SERVER)}`);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(SERVER);
    await page.locator('html[data-app="started"]').waitFor();
    // Deutsch keeps "Like" as the button's word (docs/i18n-glossary.md); the answer is the API's
    // English message shown in German.
    await page.getByRole('button', { name: 'Like', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(GERMAN_ERRORS['error.loginRequired']);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('a signed-in visitor gets their own page: the app asks for it with their session', async () => {
    const { context, page, errors } = await newPage(browser);
    const id = await serverIdByName(SERVER);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === `/api/servers/${id}`) asked.push(request.headers()['authorization'] ?? '');
    });
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    await page.goto(`/servers/${id}`);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((header) => header.startsWith('Bearer '))).toBe(true);
    expectNoPageErrors(errors);
    await context.close();
  });
});
