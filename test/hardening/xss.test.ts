import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../e2e/browser';
import { createTestApp, type TestApp } from '../helpers/test-app';
import type { TestUser } from '../helpers/factories';
import { report, scale } from './report';
import { seedHostileWorld, XSS_PAYLOADS, type HostileWorld } from './helpers/hostile-seed';

const WEB_DIST = path.resolve(import.meta.dirname, '../../dist/web');

/** What one page did with the hostile text. */
interface PageResult {
  url: string;
  dialogs: string[];
  violations: string[];
  /** Elements or attributes that exist only because text was parsed as HTML, and script links. */
  injected: string[];
  /** The page showed at least one payload as text (so it really rendered the hostile rows). */
  shownAsText: boolean;
}

declare global {
  interface Window {
    __cspViolations: string[];
  }
}

/** One browser context per actor: its session is stored once, then its pages are visited in turn. */
async function openAs(
  browser: Browser,
  base: string,
  user: TestUser | undefined,
): Promise<{ page: Page; dialogs: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: base, serviceWorkers: 'block' });
  const page: Page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  if (user) {
    // The session the login form would store, put straight into storage (as the browser journeys do).
    const me = (await (await fetch(`${base}/api/user`, { headers: user.headers })).json()) as Record<string, unknown>;
    await page.goto('/api/ready');
    await page.evaluate(
      ([token, json]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', json);
      },
      [user.token, JSON.stringify(me)] as const,
    );
  }
  return { page, dialogs, close: () => context.close() };
}

async function visit(tab: { page: Page; dialogs: string[] }, url: string): Promise<PageResult> {
  const { page } = tab;
  const before = tab.dialogs.length;
  await page.goto(url, { waitUntil: 'load' });
  // Settled when some hostile text shows (or after a bound: then the page is reported as showing none).
  await page
    .waitForFunction((payloads) => payloads.some((p) => document.body.innerText.includes(p.slice(0, 20))), XSS_PAYLOADS, { timeout: 3000 })
    .catch(() => undefined);
  await page.waitForTimeout(250);
  const found = await page.evaluate((payloads) => {
    const injected: string[] = [];
    // The two data elements a server-rendered page carries (its boot list and its API answers) are
    // JSON the browser never runs; anything else without a src is injected.
    const data = (el: Element) => el.matches('script[type="application/json"]#rp-boot, script[type="application/json"]#rp-answers');
    for (const el of Array.from(
      document.querySelectorAll('script:not([src]), img[src="x"], svg[onload], iframe, [onerror], [onload]'),
    ).filter((e) => !data(e))) {
      injected.push(el.outerHTML.slice(0, 120));
    }
    for (const a of Array.from(document.querySelectorAll('a[href], [src]'))) {
      const target = a.getAttribute('href') ?? a.getAttribute('src') ?? '';
      // React 19 swaps a javascript: URL for one that throws; that one is harmless.
      if (/^\s*javascript:/i.test(target) && !target.includes('React has blocked a javascript: URL')) injected.push(`link to ${target}`);
    }
    const text = document.body.innerText;
    return { injected, shownAsText: payloads.some((p) => text.includes(p.slice(0, 20))), violations: window.__cspViolations };
  }, XSS_PAYLOADS);
  return { url, dialogs: tab.dialogs.slice(before), ...found };
}

describe('stored XSS: hostile text rendered in real Chromium and in the Open Graph head', () => {
  let t: TestApp;
  let browser: Browser;
  let world: HostileWorld;
  let base: string;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(WEB_DIST, 'index.html')))
      throw new Error('dist/web is missing: run `npx vite build --logLevel warn` first');
    t = await createTestApp({ build: { webDist: WEB_DIST } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    world = await seedHostileWorld(t.app);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('runs no script and injects no markup on any page that shows user text', async () => {
    const [first, second] = world.serverIds;
    const serverPages = world.serverIds.slice(0, scale(3, world.serverIds.length)).map((id) => `/servers/${id}`);
    const plan: Array<[TestUser | undefined, string[]]> = [
      [undefined, ['/home', '/list?tab=popular', `/search?q=${encodeURIComponent('<script>')}`, '/subscriptions', ...serverPages]],
      [world.player, [`/servers/${first}`, '/profile', '/inbox']],
      [world.owner, ['/inbox', '/dashboard', `/dashboard/${second}`, '/stats']],
      [world.admin, ['/admin', '/admin/email']],
    ];
    const results: PageResult[] = [];
    for (const [user, urls] of plan) {
      const tab = await openAs(browser, base, user);
      for (const url of urls) results.push(await visit(tab, url));
      await tab.close();
    }
    const executed = results.filter((r) => r.dialogs.length > 0);
    const injected = results.filter((r) => r.injected.length > 0);
    const silent = results.filter((r) => !r.shownAsText).map((r) => r.url);
    const violations = results.reduce((n, r) => n + r.violations.length, 0);
    report({
      area: 'Stored XSS',
      check: 'hostile user text on pages in Chromium',
      tried: results.length * XSS_PAYLOADS.length,
      gotThrough: executed.length + injected.length,
      detail: `${results.length} pages, ${XSS_PAYLOADS.length} payloads; CSP violations (blocked) ${violations}${violations ? ` e.g. ${results.find((r) => r.violations.length)!.violations[0]}` : ''}; pages that showed no payload: ${silent.join(' ') || 'none'}`,
    });
    const problems = [
      ...executed.map((r) => `${r.url}: dialog ${r.dialogs.join(', ')}`),
      ...injected.map((r) => `${r.url}: markup from user text ${r.injected.join(' | ')}`),
    ];
    expect(problems, problems.join('\n')).toEqual([]);
    // The pages must have rendered the hostile rows at all, or the check proves nothing.
    expect(results.filter((r) => r.shownAsText).length, `pages that showed none of the payloads: ${silent.join(', ')}`).toBeGreaterThan(
      results.length * 0.7,
    );
  });

  it('escapes the server page’s Open Graph head, as served and as Chromium parses it', async () => {
    const problems: string[] = [];
    for (const id of world.serverIds) {
      const html = await (await fetch(`${base}/servers/${id}`)).text();
      const head = html.slice(0, html.indexOf('</head>'));
      for (const raw of ['<script>alert', '<img src=x', '<svg onload', '</title><script>', '<iframe', '<a href="javascript']) {
        if (head.includes(raw)) problems.push(`/servers/${id}: head contains ${raw}`);
      }
      const name = (await t.app.ctx.db.selectFrom('servers').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${base}/servers/${id}`);
      const og = await page.evaluate(() => ({
        title: document.title,
        ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? null,
        // Data only: the boot list in the head and the page's answers in the body, each valid JSON.
        scripts: Array.from(document.head.querySelectorAll('script:not([src]):not([type="application/json"]#rp-boot)')).length,
        bodyScripts: Array.from(document.body.querySelectorAll('script:not([type="application/json"]#rp-answers)')).length,
        dataParses: Array.from(document.querySelectorAll('script[type="application/json"]')).every((el) => {
          try {
            JSON.parse(el.textContent ?? '');
            return true;
          } catch {
            return false;
          }
        }),
        answersName: (() => {
          const answers = document.getElementById('rp-answers')?.textContent;
          return answers ? (Object.values(JSON.parse(answers) as Record<string, { data: { name?: string } }>)[0]?.data.name ?? null) : null;
        })(),
      }));
      await context.close();
      if (!og.title.startsWith(name)) problems.push(`/servers/${id}: <title> is ${JSON.stringify(og.title)}, expected the name as text`);
      if (!og.ogTitle?.startsWith(name)) problems.push(`/servers/${id}: og:title is ${JSON.stringify(og.ogTitle)}`);
      if (og.scripts > 0 || og.bodyScripts > 0) problems.push(`/servers/${id}: inline scripts in the served HTML`);
      if (!og.dataParses) problems.push(`/servers/${id}: a JSON data element does not parse (text broke out of it)`);
      if (og.answersName !== null && og.answersName !== name)
        problems.push(`/servers/${id}: the page's answers carry ${JSON.stringify(og.answersName)}`);
    }
    report({
      area: 'Stored XSS',
      check: 'server names in the Open Graph <head>',
      tried: world.serverIds.length,
      gotThrough: problems.length,
      detail: `${world.serverIds.length} server pages fetched raw and parsed by Chromium without script`,
    });
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
