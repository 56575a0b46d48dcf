import zlib from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoPageErrors, launchBrowser, newPage, PHONE } from './browser';
import { serverIdByName } from './api';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SERVER = 'Los Santos Legacy RP';
/** The most compressed script (gzip) a page may load before a visitor can use it. */
const BUDGET_BYTES = 80 * 1024;
const PHONE_OPTIONS = { viewport: PHONE, isMobile: true, hasTouch: true };

/** A phone four times slower than this machine, as Lighthouse's mobile run models one. */
async function slowPhone(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/**
 * The scripts a page runs until it is loaded and the browser has been idle a while, each with its
 * size as gzip (level 9, as the build writes `.gz`): what a first visit downloads before the
 * visitor has done anything. The app's files fetched for later (`rel="prefetch"`) are not scripts
 * the page runs, and are listed apart.
 */
async function firstLoad(
  pathname: string,
): Promise<{ scripts: Array<{ url: string; gzip: number }>; prefetched: string[]; listed: string[]; started: boolean }> {
  const { context, page, errors } = await newPage(browser, PHONE_OPTIONS, { startApp: false });
  const pending: Array<Promise<{ url: string; gzip: number }>> = [];
  const prefetched: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url()).pathname;
    if (response.request().resourceType() === 'script') {
      pending.push(response.body().then((body) => ({ url, gzip: zlib.gzipSync(body, { level: 9 }).length })));
    } else if (url.endsWith('.js')) {
      prefetched.push(url);
    }
  });
  await page.goto(pathname, { waitUntil: 'load' });
  // What the page starts after its load (the landing page's socket client, idle-time work).
  await page.waitForTimeout(2500);
  const started = await page.evaluate(() => document.documentElement.getAttribute('data-app') === 'started');
  // The app's files the page lists for its first tap (none on the landing page).
  const listed = await page.evaluate(() => {
    const list = JSON.parse(document.getElementById('rp-boot')?.textContent || '{}') as { scripts?: string[]; preloads?: string[] };
    return [...(list.scripts ?? []), ...(list.preloads ?? [])];
  });
  const scripts = await Promise.all(pending);
  expectNoPageErrors(errors);
  await context.close();
  return { scripts, prefetched, listed, started };
}

describe('what a page loads first', () => {
  it('is at most 80 KB of gzip script on /, /home, /search, /list and a server page: the app waits for the visitor', async () => {
    const serverPath = `/servers/${await serverIdByName(SERVER)}`;
    for (const pathname of ['/', '/home', '/search', '/list', serverPath]) {
      const { scripts, prefetched, listed: files, started } = await firstLoad(pathname);
      const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
      const listed = JSON.stringify(scripts);
      expect(scripts.length, pathname).toBeGreaterThan(0);
      expect(total, `${pathname}: ${listed}`).toBeLessThanOrEqual(BUDGET_BYTES);
      // None of the app (React, the router, zod, the page's code) has run: it waits for a first move.
      expect(started, pathname).toBe(false);
      expect(
        scripts.map((script) => script.url).filter((url) => /\/assets\/(react|main|use-t|[a-z-]*-page)-/.test(url)),
        pathname,
      ).toEqual([]);
      // A rendered page has the app's files at hand for the first tap: fetched once idle, not run.
      if (pathname !== '/') {
        expect(
          prefetched.some((url) => /\/assets\/react-/.test(url)),
          `${pathname} prefetches the app`,
        ).toBe(true);
        // Every one of them, though a few per idle moment (one task starting them all was a long task).
        expect(files.length, pathname).toBeGreaterThan(4);
        expect(
          files.filter((file) => !prefetched.includes(file)),
          `${pathname} prefetches all it lists`,
        ).toEqual([]);
      }
    }
  });

  it("starts the app's prefetches a few per task, never all in one (a long task on a phone)", async () => {
    const { context, page, errors } = await newPage(browser, PHONE_OPTIONS, { startApp: false });
    await page.addInitScript(() => {
      // Mutation records come once per task (at its microtask checkpoint): one entry per task that added any.
      const perTask: number[] = [];
      (window as unknown as { prefetchesPerTask: number[] }).prefetchesPerTask = perTask;
      new MutationObserver((records) => {
        let added = 0;
        for (const record of records)
          for (const node of record.addedNodes) if (node instanceof HTMLLinkElement && node.rel === 'prefetch') added++;
        if (added > 0) perTask.push(added);
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/home', { waitUntil: 'load' });
    await page.waitForTimeout(2500);
    const perTask = await page.evaluate(() => (window as unknown as { prefetchesPerTask: number[] }).prefetchesPerTask);
    expectNoPageErrors(errors);
    await context.close();
    expect(perTask.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(4);
    expect(Math.max(...perTask), JSON.stringify(perTask)).toBeLessThanOrEqual(2);
  });

  it('a visitor who only reads: the app never starts, and the visit still counts as a view', async () => {
    const id = await serverIdByName(SERVER);
    const { context, page, errors } = await newPage(browser, PHONE_OPTIONS, { startApp: false });
    const counted = page.waitForRequest((request) => new URL(request.url()).pathname === `/api/servers/${id}`);
    await page.goto(`/servers/${id}`);
    await counted;
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-app'))).toBeNull();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(SERVER);
    // Login and Register are in the page as the server drew it (in the phone's closed menu), with no app to add them.
    expect(await page.locator('#main-menu a[href="/register"]').textContent()).toBe('Register');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('a tap that comes before the app is held, and played again once the app has the page', async () => {
    const { context, page, errors } = await newPage(browser, PHONE_OPTIONS, { startApp: false });
    await slowPhone(page);
    await page.goto(`/servers/${await serverIdByName(SERVER)}`);
    // The first thing this visitor does: Like, which asks a visitor to log in. The app starts with the tap.
    await page.getByRole('button', { name: 'Like', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
      .toBe('You must be logged in to perform this action.');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-app'))).toBe('started');
    expectNoPageErrors(errors);
    await context.close();
  });

  it('words typed into the search box before the app has the page are searched', async () => {
    const { context, page, errors } = await newPage(browser, PHONE_OPTIONS, { startApp: false });
    await slowPhone(page);
    await page.goto('/search');
    // The search as it opens is drawn by the server, results and all.
    expect(await page.getByTestId('search-results').getByRole('listitem').count()).toBeGreaterThan(0);
    await page.getByRole('searchbox', { name: 'Server name' }).tap();
    await page.keyboard.type('Legacy', { delay: 40 });
    await page.waitForURL((url) => url.searchParams.get('q') === 'Legacy', { timeout: 15_000 });
    await expect.poll(() => page.getByTestId('search-results').getByRole('listitem').first().textContent()).toContain(SERVER);
    expect(await page.getByRole('searchbox', { name: 'Server name' }).inputValue()).toBe('Legacy');
    expectNoPageErrors(errors);
    await context.close();
  });
});
