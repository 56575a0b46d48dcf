import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectNoPageErrors, launchBrowser, newPage, PHONE } from './browser';
import { serverIdByName } from './api';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The layout shifts of a page load until the network is quiet, as the browser reports them. */
async function layoutShiftOf(pathname: string, viewport: { width: number; height: number }): Promise<number> {
  const { context, page, errors } = await newPage(browser, { viewport });
  await page.addInitScript(() => {
    const w = window as unknown as { shift: number };
    w.shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(pathname, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  const shift = await page.evaluate(() => (window as unknown as { shift: number }).shift);
  expectNoPageErrors(errors);
  await context.close();
  return shift;
}

describe('pages hold still while their data arrives', () => {
  it('/home, /search and a server page, on a phone and a desktop, the app starting over them included', async () => {
    const serverPath = `/servers/${await serverIdByName('Los Santos Legacy RP')}`;
    for (const pathname of ['/', '/home', '/search', serverPath]) {
      for (const viewport of [PHONE, DESKTOP]) {
        // "Good" is below 0.1; these pages are built to shift not at all.
        expect(await layoutShiftOf(pathname, viewport), `${pathname} at ${viewport.width}px`).toBeLessThan(0.02);
      }
    }
  });
});

describe('a server page whose 24-hour history fails', () => {
  it('opens at once without those facts rather than waiting on retries', async () => {
    const { context, page } = await newPage(browser);
    await page.route('**/history?**', (route) => route.fulfill({ status: 500, body: '{}' }));
    const started = Date.now();
    await page.goto(`/servers/${await serverIdByName('Los Santos Legacy RP')}`);
    await page.getByTestId('server-facts').waitFor({ timeout: 5000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await page.getByTestId('server-facts').textContent()).toContain('Players now');
    await context.close();
  });
});
