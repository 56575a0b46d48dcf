import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerUser, signInWithToken } from './api';
import { baseURL, expectNoPageErrors, expectPath, launchBrowser, newPage, PHONE } from './browser';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('landing page', () => {
  it('shows the live player count and a disabled Install App button', async () => {
    const { context, page, errors } = await newPage(browser);
    const liveCount = async () => ((await (await fetch(`${baseURL()}/api/player-count`)).json()) as { count: number }).count;
    await page.goto('/');
    const install = page.getByRole('button', { name: 'Install App' });
    expect(await install.isDisabled()).toBe(true);
    // Not a faded grey button: drawn at full strength, outlined, with the hint below.
    expect(await install.evaluate((el) => [getComputedStyle(el).opacity, getComputedStyle(el).borderTopStyle])).toEqual(['1', 'dashed']);
    // Never a silent grey button: the line under it says how to install here.
    expect(await page.getByTestId('install-hint').textContent()).toContain('install icon at the right of the address bar');
    const shown = page.getByTestId('player-count');
    const onPage = async () => Number((await shown.textContent())?.replaceAll(',', ''));
    // The demo's game servers keep changing the count: the page must come to show the server's
    // count as it stands (both read afresh on every try, so a change between two reads is no failure).
    await expect.poll(async () => (await onPage()) === (await liveCount()), { timeout: 10_000 }).toBe(true);
    expect(await onPage()).toBeGreaterThanOrEqual(0);
    // The device remembers it, so the next visit starts from the real number.
    await expect
      .poll(async () => (await page.evaluate(() => localStorage.getItem('rp.lastPlayerCount'))) === String(await onPage()), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await page.getByRole('link', { name: 'Contact support' }).first().getAttribute('href')).toMatch(/^mailto:/);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('Launch in Browser opens /home', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/');
    await page.getByRole('link', { name: 'Launch in Browser' }).click();
    await expectPath(page, '/home');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('shows the iOS install hint once, and hides it for good once dismissed', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: PHONE, userAgent: IPHONE_SAFARI, isMobile: true, hasTouch: true });
    await page.goto('/');
    const hint = page.getByTestId('ios-install-hint');
    await hint.waitFor();
    // Said once: while the banner shows, the line under Install App does not repeat it.
    expect(await page.getByTestId('install-hint').count()).toBe(0);
    await page.getByRole('button', { name: 'Dismiss install hint' }).click();
    expect(await hint.count()).toBe(0);
    await expect.poll(() => page.getByTestId('install-hint').textContent()).toContain('Add to Home Screen');
    await page.reload();
    await page.getByTestId('player-count').waitFor();
    expect(await hint.count()).toBe(0);
    expect(await page.getByTestId('install-hint').textContent()).toContain('Add to Home Screen');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('does not show the iOS hint to desktop browsers', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/');
    await page.getByTestId('player-count').waitFor();
    expect(await page.getByTestId('ios-install-hint').count()).toBe(0);
    await context.close();
  });

  it('redirects to /home when running as an installed app', async () => {
    const { context, page, errors } = await newPage(browser);
    await context.addInitScript(() => Object.defineProperty(navigator, 'standalone', { value: true }));
    await page.goto('/');
    await expectPath(page, '/home');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('is installable: manifest with icons, and a service worker that controls the page', async () => {
    const { context, page, errors } = await newPage(browser, { serviceWorkers: 'allow' });
    await page.goto('/');
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await fetch(new URL(manifestHref ?? '', baseURL()))).json()) as {
      name: string;
      display: string;
      start_url: string;
      icons: Array<{ src: string; sizes: string; purpose?: string }>;
    };
    expect(manifest).toMatchObject({ name: 'RP Servers', display: 'standalone', start_url: '/' });
    expect(manifest.icons.map((i) => `${i.sizes}${i.purpose ? ` ${i.purpose}` : ''}`)).toEqual(['192x192', '512x512', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const res = await fetch(new URL(icon.src, baseURL()));
      expect(res.headers.get('content-type')).toBe('image/png');
    }
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${baseURL()}/`);
    expectNoPageErrors(errors);
    await context.close();
  });
});

describe('landing page without the app', () => {
  it('paints from the HTML alone: no script needed to see it', async () => {
    const { context, page } = await newPage(browser, { javaScriptEnabled: false });
    await page.goto('/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Find your next roleplay home.');
    expect(await page.getByRole('button', { name: 'Install App' }).isDisabled()).toBe(true);
    expect(await page.getByRole('link', { name: 'Launch in Browser' }).getAttribute('href')).toBe('/home');
    expect(await page.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/register');
    expect(await page.getByTestId('install-hint').textContent()).toContain('install icon');
    await context.close();
  });

  it('loads at most 80 KB of compressed script, none of the app (React, router, zod)', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
    const scripts: Array<{ url: string; bytes: Promise<number> }> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.push({
        url: response.url(),
        bytes: response
          .request()
          .sizes()
          .then((s) => s.responseBodySize),
      });
    });
    const socket = page.waitForEvent('websocket');
    await page.goto('/');
    await socket; // the last script it loads, after the first paint
    const { count } = await api<{ count: number }>('GET', '/api/player-count');
    await expect.poll(async () => Number((await page.getByTestId('player-count').textContent())?.replaceAll(',', ''))).toBe(count);
    const sizes = await Promise.all(scripts.map(async (s) => ({ url: new URL(s.url).pathname, bytes: await s.bytes })));
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.map((s) => s.url).filter((url) => /\/assets\/(react|api-client|main|index)-/.test(url))).toEqual([]);
    const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
    expect(total, JSON.stringify(sizes)).toBeLessThanOrEqual(80 * 1024);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('opens and closes the phone menu, whose links lead into the app', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
    await page.goto('/');
    const menu = page.locator('#main-menu');
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await menu.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Close menu' }).click();
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Search Servers' }).click();
    await expectPath(page, '/search');
    await page.getByRole('searchbox').first().waitFor();
    expectNoPageErrors(errors);
    await context.close();
  });

  it('turns Install App on when the browser offers installation, and asks the browser on a click', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/');
    const install = page.getByRole('button', { name: 'Install App' });
    await page.getByTestId('install-hint').waitFor();
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => void document.body.setAttribute('data-prompted', 'yes'),
        userChoice: Promise.resolve({ outcome: 'accepted' }),
      });
      window.dispatchEvent(offer);
    });
    await expect.poll(() => install.isDisabled()).toBe(false);
    expect(await page.getByTestId('install-hint').count()).toBe(0);
    await install.click();
    await expect.poll(() => page.locator('body').getAttribute('data-prompted')).toBe('yes');
    // The offer is used once: the button waits for the next one.
    await expect.poll(() => install.isDisabled()).toBe(true);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('asks for the live count again once, and says so when it cannot get it', async () => {
    const { context, page, errors } = await newPage(browser);
    // No socket here: it would send the live count on connecting, which is not what this is about.
    await page.routeWebSocket(/socket\.io/, () => {});
    await page.route(/\/socket\.io\//, (route) => route.abort());
    let asked = 0;
    await page.route('**/api/player-count', async (route) => {
      asked += 1;
      if (asked === 1) return route.fulfill({ status: 503, body: '{}' });
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ count: 4321 }) });
    });
    await page.goto('/');
    await expect.poll(async () => page.getByTestId('player-count').textContent(), { timeout: 10_000 }).toBe('4,321');
    expect(asked).toBe(2);
    expect(await page.getByText('Live count unavailable').count()).toBe(0);

    await page.unroute('**/api/player-count');
    await page.route('**/api/player-count', (route) => route.fulfill({ status: 503, body: '{}' }));
    await page.reload();
    await page.getByText('Live count unavailable, showing the last one we saw.').waitFor({ timeout: 10_000 });
    // The last count this device saw stays on screen.
    expect(await page.getByTestId('player-count').textContent()).toBe('4,321');
    expect(errors.filter((e) => !/503|socket/i.test(e))).toEqual([]);
    await context.close();
  });

  it('gives a signed-in visitor the app, with their own menu', async () => {
    const player = await registerUser('player');
    const { context, page, errors } = await newPage(browser);
    await signInWithToken(page, player.token, '/');
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await page.getByRole('link', { name: 'Register' }).count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Find your next roleplay home.');
    await page.getByTestId('player-count').waitFor();
    expectNoPageErrors(errors);
    await context.close();
  });
});

describe('app pages before their scripts run', () => {
  it('paint the navigation, a loading state and the footer from the HTML', async () => {
    const { context, page } = await newPage(browser, { javaScriptEnabled: false });
    // A search with words in its address is drawn by the app (the search as it opens is rendered on the server).
    await page.goto('/search?q=Los');
    expect(await page.getByRole('link', { name: 'Search Servers' }).getAttribute('href')).toBe('/search');
    expect(await page.locator('[aria-busy="true"]').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Contact support' }).count()).toBe(1);
    // Who is signed in is on the device: no Login or Logout until the app knows.
    expect(await page.getByRole('link', { name: 'Login' }).count()).toBe(0);
    await context.close();
  });

  it('ask for their page chunks from the HTML, and the app then replaces the frame', async () => {
    const html = await (await fetch(`${baseURL()}/search?q=Los`)).text();
    const chunks = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    expect(chunks.some((href) => /\/assets\/search-page-/.test(href ?? ''))).toBe(true);
    for (const href of chunks) expect((await fetch(`${baseURL()}${href}`)).status, href).toBe(200);
    const { context, page, errors } = await newPage(browser);
    await page.goto('/search?q=Los');
    await page.getByRole('link', { name: 'Login' }).waitFor();
    // The app's navigation replaces the frame's: one banner (the search page's own <header> is in
    // <main>, so it is not one). On a busy machine the swap may still be finishing.
    await expect.poll(() => page.getByRole('banner').count(), { timeout: 5000 }).toBe(1);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('banner').count()).toBe(1);
    expectNoPageErrors(errors);
    await context.close();
  });
});
