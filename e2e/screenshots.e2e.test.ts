import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DEMO } from './accounts';
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
    await screenshot(page, `profile-${label}`);
    if (label === 'phone') {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await screenshot(page, `menu-open-${label}`);
    }
    await context.close();
  });
});
