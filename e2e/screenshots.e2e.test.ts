import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DEMO } from './accounts';
import { serverIdByName } from './api';
import { DESKTOP, launchBrowser, loginThroughForm, newPage, PHONE, screenshot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Screenshots for review at phone and desktop sizes (test-results/screenshots/). */
describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('screenshots on %s', (label, viewport) => {
  const mobile = label === 'phone' ? { isMobile: true, hasTouch: true } : {};

  it('landing, login and register', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await page.goto('/');
    await page.getByTestId('player-count').waitFor();
    await page.waitForTimeout(1200); // let the count animation finish
    await screenshot(page, `landing-${label}`);
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    await screenshot(page, `login-${label}`);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('dialog').waitFor();
    await screenshot(page, `reset-dialog-${label}`);
    await page.goto('/register');
    await page.getByLabel('Username').waitFor();
    await screenshot(page, `register-${label}`);
    await context.close();
  });

  it('a logged-in page', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `profile-${label}`);
    if (label === 'phone') {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await screenshot(page, `menu-open-${label}`);
    }
    await context.close();
  });

  it('discovery pages: home, search, list and a server page', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await page.goto('/home');
    await page.getByTestId('top-10').waitFor();
    await page.getByTestId('just-joined').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `home-${label}`);
    await page.goto('/search?filters=FiveM%20(GTA%20V)');
    await page.getByTestId('search-results').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `search-${label}`);
    await page.goto('/list');
    await page.getByTestId('ranked-list').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `list-${label}`);
    await page.goto(`/servers/${await serverIdByName('Los Santos Legacy RP')}`);
    await page.getByTestId('reviews').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `server-${label}`);
    await context.close();
  });

  it('owner dashboard', async () => {
    const { context, page } = await newPage(browser, { viewport, ...mobile });
    await loginThroughForm(page, DEMO.owner, DEMO.password, '/dashboard');
    await page.waitForURL((url) => /^\/dashboard\/\d+$/.test(url.pathname));
    await page.getByTestId('server-preview').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `dashboard-${label}`);
    await context.close();
  });
});
