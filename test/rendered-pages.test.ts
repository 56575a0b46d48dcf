import type { Locale } from '../src/shared/i18n/locales';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageAnswers, PageRenderer } from '../src/shared/prerender';
import * as sourceRenderer from '../src/web/ssr/render';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { APP_INDEX_HTML, tempWebDist } from './helpers/web-dist';

// `$'` and `$&` too: text that goes through `String.replace` as replacement text expands them.
const ATTACK = "</script><script>alert(1)</script><!-- $' $& $` $$";

/** The source renderer, counting its renders (and how many run at once), able to fail or to wait on demand. */
function countingRenderer() {
  const state = { renders: 0, fail: false, active: 0, mostAtOnce: 0, gate: Promise.resolve() };
  const renderer: PageRenderer = {
    locationFor: sourceRenderer.locationFor,
    requestsFor: sourceRenderer.requestsFor,
    renderPage: async (pathname: string, answers: PageAnswers, renderedAt: number, locale: Locale) => {
      state.renders += 1;
      state.active += 1;
      state.mostAtOnce = Math.max(state.mostAtOnce, state.active);
      try {
        await state.gate;
        if (state.fail) throw new Error('renderer broke');
        return await sourceRenderer.renderPage(pathname, answers, renderedAt, locale);
      } finally {
        state.active -= 1;
      }
    },
  };
  return { renderer, state };
}

const scriptTags = (html: string) => html.match(/<script\b[^>]*>/gi) ?? [];
const answersOf = (html: string) =>
  JSON.parse(/<script id="rp-answers" type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null') as PageAnswers;
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.indexOf('<script id="rp-answers"'));

describe('pages rendered on the server', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;
  const counting = countingRenderer();
  let serverId: number;
  let attackId: number;

  beforeAll(async () => {
    dist = tempWebDist({ 'index.html': APP_INDEX_HTML });
    t = await createTestApp({ build: { webDist: dist.dir, pageRenderer: counting.renderer, listCacheTtlMs: 0 } });
    const owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id, { name: 'Rendered Valley RP', currentPlayers: 12 })).id;
    attackId = (await createServer(t.app, owner.row.id, { name: ATTACK })).id;
    await t.app.ctx.db
      .updateTable('servers')
      .set({ statusMessage: `<img src=x onerror=alert(2)>${ATTACK}` })
      .where('id', '=', attackId)
      .execute();
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  it('a server page comes with its content, the answers it was drawn from, and its scripts held for after the first paint', async () => {
    const res = await t.app.inject({ url: `/servers/${serverId}` });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(rootOf(html)).toMatch(/<h1[^>]*>Rendered Valley RP<\/h1>/);
    expect(rootOf(html)).not.toContain('Loading…');

    // The same answers the API gives, so the app starts from exactly what the page shows.
    const answers = answersOf(html);
    const api = await t.app.inject({ url: `/api/servers/${serverId}` });
    // (The API call here counted a view; the rendering did not.)
    expect({ ...(answers[`/api/servers/${serverId}`]?.data as object), views: 0 }).toEqual({ ...api.json<object>(), views: 0 });
    expect(Object.keys(answers)).toEqual([
      `/api/servers/${serverId}`,
      `/api/servers/${serverId}/history?range=24h`,
      '/api/filters/categories',
    ]);

    // No module script in the page: the boot script adds them, in the page's order, once it has painted.
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toContain('type="module"');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/styles-abc.css">');
    expect(head).toContain('<script src="/ssr-boot.js" defer></script>');
    const boot = JSON.parse(/<script id="rp-boot" type="application\/json">([\s\S]*?)<\/script>/.exec(head)?.[1] ?? 'null') as {
      scripts: string[];
    };
    expect(boot.scripts).toEqual(['/assets/react-abc.js', '/assets/main-abc.js']);
    // Every script is a file of this site or inert JSON: the CSP allows no inline script.
    for (const tag of scriptTags(html)) expect(tag).toMatch(/type="application\/json"|src="\/ssr-boot\.js"/);
  });

  it('text from owners cannot break out of the page: names and status messages stay text and data', async () => {
    const res = await t.app.inject({ url: `/servers/${attackId}` });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    // Exactly the three script elements the server writes; none from the server's name.
    expect(scriptTags(html)).toHaveLength(3);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x onerror');
    expect(rootOf(html)).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--');
    // The answers still carry the name exactly.
    expect((answersOf(html)[`/api/servers/${attackId}`]?.data as { name: string }).name).toBe(ATTACK);
  });

  it("a rendering counts no view: the visitor's own view counts when the app refreshes the page", async () => {
    const viewsOf = async (id: number) => {
      await t.app.ctx.discovery.flushCounts();
      return (await t.app.ctx.db.selectFrom('servers').select('views').where('id', '=', id).executeTakeFirstOrThrow()).views;
    };
    const before = await viewsOf(serverId);
    for (let i = 0; i < 3; i += 1) expect((await t.app.inject({ url: `/servers/${serverId}` })).body).toContain('rp-answers');
    expect(await viewsOf(serverId)).toBe(before);
    await t.app.inject({
      url: `/api/servers/${serverId}`,
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0' },
      remoteAddress: '203.0.113.9',
    });
    expect(await viewsOf(serverId)).toBe(before + 1);
  });

  it('/home comes with its rows drawn', async () => {
    const html = (await t.app.inject({ url: '/home' })).body;
    expect(rootOf(html)).toContain('Rendered Valley RP');
    expect(Object.keys(answersOf(html))).toEqual([
      '/api/servers/just-joined',
      '/api/servers?sort=likes&limit=10',
      '/api/server-of-the-weekend',
    ]);
  });

  it('/list comes with the tab its address asks for, each tab a page of its own', async () => {
    const tabOf = (html: string) => /<button[^>]*aria-selected="true"[^>]*>([^<]*)<\/button>/.exec(rootOf(html))?.[1];
    const hot = (await t.app.inject({ url: '/list' })).body;
    expect(tabOf(hot)).toBe('Hot');
    expect(Object.keys(answersOf(hot))).toEqual(['/api/servers?sort=hot&limit=10']);
    const popular = (await t.app.inject({ url: '/list?tab=popular' })).body;
    expect(tabOf(popular)).toBe('Most Popular');
    expect(Object.keys(answersOf(popular))).toEqual(['/api/servers?sort=popular&limit=10']);
    // Anything else in the query string is the Hot tab, as the page itself reads it.
    for (const url of ['/list?tab=hot', '/list?tab=POPULAR', '/list?x=1'])
      expect(tabOf((await t.app.inject({ url })).body), url).toBe('Hot');
    expect(tabOf((await t.app.inject({ url: '/list?x=1&tab=popular' })).body)).toBe('Most Popular');
  });

  it('a server that does not exist, a malformed id and other paths get the app without a rendering', async () => {
    // Only the spelling the site links to is rendered: every other one would be a rendering and a cache entry of its own.
    const spellings = [
      `/Servers/${serverId}`,
      `/SERVERS/${serverId}`,
      `/servers/${serverId}/`,
      `/servers/0${serverId}`,
      `/servers/${serverId}.0`,
      '/Home',
      '/home/',
    ];
    // A search with words in its address is drawn by the app (only the search as it opens is rendered).
    for (const url of [
      '/servers/999999',
      '/servers/abc',
      `/servers/${serverId}/extra`,
      '/search?q=Valley',
      '/login',
      '/List',
      ...spellings,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div class="frame">Loading…</div>');
      expect(res.body, url).not.toContain('rp-answers');
      expect(res.body, url).toContain('<script type="module" crossorigin src="/assets/main-abc.js"></script>');
    }
  });

  it('shows a change at the next rendering', async () => {
    await t.app.ctx.db.updateTable('servers').set({ name: 'Renamed Valley RP' }).where('id', '=', serverId).execute();
    const heading = async () => /<h1[^>]*>([^<]*)<\/h1>/.exec(rootOf((await t.app.inject({ url: `/servers/${serverId}` })).body))?.[1];
    await expect.poll(heading, { timeout: 5000, interval: 100 }).toBe('Renamed Valley RP');
  });

  it('a failing renderer leaves the page as the app, not an error', async () => {
    counting.state.fail = true;
    try {
      const res = await t.app.inject({ url: `/servers/${serverId}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div class="frame">Loading…</div>');
      expect(t.takeErrors()).toEqual([]);
    } finally {
      counting.state.fail = false;
    }
  });

  it('renders at most four pages at once: a client asking for many gets the app for the rest', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createServer(t.app, owner.row.id, { name: `Crawled ${i} RP` }).then((row) => row.id)),
    );
    let open = () => undefined as void;
    counting.state.gate = new Promise<void>((resolve) => (open = resolve));
    counting.state.mostAtOnce = 0;
    try {
      const pending = Promise.all(ids.map((id) => t.app.inject({ url: `/servers/${id}` })));
      setTimeout(open, 1000);
      const pages = await pending;
      for (const res of pages) expect(res.statusCode).toBe(200);
      const rendered = pages.filter((res) => res.body.includes('rp-answers')).length;
      expect(rendered).toBeGreaterThan(0);
      expect(rendered).toBeLessThanOrEqual(4);
      expect(counting.state.mostAtOnce).toBeLessThanOrEqual(4);
      for (const res of pages.filter((page) => !page.body.includes('rp-answers')))
        expect(res.body).toContain('<div class="frame">Loading…</div>');
    } finally {
      counting.state.gate = Promise.resolve();
    }
  });

  it('requests arriving together for a page wait for one rendering', async () => {
    const before = counting.state.renders;
    const answers = await Promise.all(Array.from({ length: 25 }, () => t.app.inject({ url: `/servers/${serverId}?ref=${Math.random()}` })));
    for (const res of answers) expect(rootOf(res.body)).toContain('Renamed Valley RP');
    expect(counting.state.renders - before).toBe(1);
  });
});
