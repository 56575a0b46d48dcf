import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, E2E_ADMIN } from './accounts';
import { expectNoPageErrors, expectPath, launchBrowser, loginThroughForm, newPage, PHONE } from './browser';

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

  it('sends a player who opens /admin to /', async () => {
    const { context, page, errors } = await newPage(browser);
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    await page.goto('/admin');
    await expectPath(page, '/');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('sends an unknown path to /', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto('/no/such/page');
    await expectPath(page, '/');
    expectNoPageErrors(errors);
    await context.close();
  });
});

describe('navigation bar per role', () => {
  it('shows a visitor the public pages, Login and Register', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/home');
    expect(await navLabels(page)).toEqual([...COMMON, 'Login', 'Register']);
    await context.close();
  });

  it('adds nothing for a player, and Logout', async () => {
    const { context, page } = await newPage(browser);
    await loginThroughForm(page, DEMO.player, DEMO.password, '/profile');
    expect(await navLabels(page)).toEqual([...COMMON, 'Logout']);
    await context.close();
  });

  it('adds Dashboard, Stats and Payments for an owner', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('Username').fill(DEMO.owner);
    await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' || url.pathname === '/quick-create');
    expect(await navLabels(page)).toEqual([...COMMON, 'Dashboard', 'Stats', 'Payments', 'Logout']);
    await context.close();
  });

  it('adds Admin Dashboard and Send Mass Email for an admin', async () => {
    const { context, page } = await newPage(browser);
    await loginThroughForm(page, E2E_ADMIN.username, E2E_ADMIN.password, '/admin');
    expect(await navLabels(page)).toEqual([...COMMON, 'Admin Dashboard', 'Send Mass Email', 'Logout']);
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
