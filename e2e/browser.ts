import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../test-results/screenshots');

/** Debian's Chromium, headless (never `playwright install`). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const baseURL = () => inject('baseURL');

/**
 * A fresh context (own storage) with the app's base URL. Uncaught page errors are collected and
 * checked by {@link expectNoPageErrors}: a journey fails if the app throws.
 */
export async function newPage(
  browser: Browser,
  options: BrowserContextOptions = {},
  /** Whether `goto` and `reload` start the app on a page the server rendered (false: the page as a visitor who only reads sees it). */
  { startApp = true }: { startApp?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: DESKTOP, serviceWorkers: 'block', ...options });
  const page = await context.newPage();
  // A page the server rendered shows its content before the app has started, and the app starts
  // at the visitor's first move (docs/decisions/059-first-load-js.md): a journey moves the mouse, as
  // a person's first touch would, and goes on once the app has taken over.
  if (options.javaScriptEnabled !== false && startApp) {
    const appStarted = async () => {
      if ((await page.locator('#rp-boot').count()) > 0) await moveUntilStarted(page);
    };
    const goto = page.goto.bind(page);
    page.goto = async (url, gotoOptions) => {
      const response = await goto(url, gotoOptions);
      await appStarted();
      return response;
    };
    const reload = page.reload.bind(page);
    page.reload = async (reloadOptions) => {
      const response = await reload(reloadOptions);
      await appStarted();
      return response;
    };
  }
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (msg) => {
    // Failed resource loads (an expected 401 of a wrong password) are not app errors.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(msg.text());
  });
  return { context, page, errors };
}

/**
 * Moves the mouse (a visitor's first move) until the app has taken over a page the server rendered:
 * a move that comes before the page's boot script is listening starts nothing, so it moves again.
 */
export async function moveUntilStarted(page: Page): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (let i = 0; ; i += 1) {
    if (await page.evaluate(() => document.documentElement.getAttribute('data-app') === 'started')) return;
    if (Date.now() > deadline) throw new Error(`the app did not start on ${page.url()}`);
    await page.mouse.move(1 + (i % 2), 1);
    await page.waitForTimeout(100);
  }
}

export function expectNoPageErrors(errors: string[]): void {
  expect(errors, `the page logged errors:\n${errors.join('\n')}`).toEqual([]);
}

/** Waits until the app's path is `pathname`. */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname, { timeout: 15_000 });
}

/** Logs in through the form and waits for the post-login routing to land on `landing`. */
export async function loginThroughForm(page: Page, username: string, password: string, landing: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expectPath(page, landing);
}

/** A screenshot of the whole page (or, with `fullPage: false`, of what the screen shows) in test-results/screenshots/. */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}

/** A username no other test run used (usernames are unique; runs share nothing but this must never collide). */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/**
 * Puts a session (from an API login) into the page's storage, the way the login form does, so a
 * journey does not spend one of the user's rate-limited form logins.
 */
export async function signIn(page: Page, session: { token: string; user?: Record<string, unknown> }): Promise<void> {
  let user = session.user;
  if (!user) {
    const res = await fetch(`${baseURL()}/api/user`, { headers: { authorization: `Bearer ${session.token}` } });
    expect(res.ok, `GET /api/user answered ${res.status}`).toBe(true);
    user = (await res.json()) as Record<string, unknown>;
  }
  // A page of the origin without the app, so no running app writes its own session back meanwhile.
  await page.goto('/api/ready');
  await page.evaluate(
    ([token, json]) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', json);
    },
    [session.token, JSON.stringify(user)] as const,
  );
}
