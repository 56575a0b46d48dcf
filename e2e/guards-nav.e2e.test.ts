import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, E2E_ADMIN } from './accounts';
import { DESKTOP, expectNoPageErrors, expectPath, launchBrowser, loginThroughForm, newPage, PHONE, screenshot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const COMMON = ['Home', 'Search Servers', 'Hot & Popular', 'Inbox'];

async function navLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Home', exact: true }).waitFor();
  const links = await nav.locator('#main-menu a, #main-menu button').allTextContents();
  return links.map((l) => l.trim());
}

describe('route guards', () => {
  it('sends an anonymous visitor of /dashboard to /login', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/dashboard');
    await expectPath(page, '/login');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('sends a player who opens /admin to /, saying why', async () => {
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    await page.goto('/admin');
    await expectPath(page, '/');
    expect(await page.getByTestId('route-notice').textContent()).toContain('Only admins can open /admin.');
    expect(await page.getByTestId('route-notice').getByRole('link', { name: 'Log in' }).count()).toBe(0);
    expectNoPageErrors(errors);
    await context.close();
  });

  it('sends an unknown path to /, saying so and offering a logged-out visitor to log in', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await newPage(browser, { viewport });
      await page.goto('/no/such/page');
      await expectPath(page, '/');
      const notice = page.getByTestId('route-notice');
      expect(await notice.textContent()).toContain('That page does not exist: /no/such/page');
      await notice.getByRole('link', { name: 'Log in' }).waitFor();
      await screenshot(page, `route-notice-${viewport === PHONE ? 'phone' : 'desktop'}`);
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      expect(await page.getByTestId('route-notice').count()).toBe(0);
      expectNoPageErrors(errors);
      await context.close();
    }
  });
});

describe('navigation bar per role', () => {
  it('shows a visitor the public pages, Login and Register', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/home');
    expect(await navLabels(page)).toEqual([...COMMON, 'Login', 'Register']);
    await context.close();
  });

  it('adds Profile for a player, and Logout', async () => {
    const { context, page } = await newPage(browser);
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    expect(await navLabels(page)).toEqual([...COMMON, 'Profile', 'Logout']);
    await context.close();
  });

  it('adds Dashboard, Stats, Payments and Profile for an owner', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('Username').fill(DEMO.owner);
    await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' || url.pathname === '/quick-create');
    expect(await navLabels(page)).toEqual([...COMMON, 'Dashboard', 'Stats', 'Payments', 'Profile', 'Logout']);
    await context.close();
  });

  it('adds Admin Dashboard, Send Mass Email and Profile for an admin', async () => {
    const { context, page } = await newPage(browser);
    await loginThroughForm(page, E2E_ADMIN.username, E2E_ADMIN.password, '/admin');
    expect(await navLabels(page)).toEqual([...COMMON, 'Admin Dashboard', 'Send Mass Email', 'Profile', 'Logout']);
    await context.close();
  });

  it('collapses into a menu button on a phone', async () => {
    const { context, page } = await newPage(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
    await page.goto('/home');
    const menu = page.locator('#main-menu');
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await menu.isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Search Servers' }).click();
    await expectPath(page, '/search');
    expect(await menu.isVisible()).toBe(false);
    await context.close();
  });
});
