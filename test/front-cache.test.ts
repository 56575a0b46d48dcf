import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { multipart } from './helpers/multipart';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { APP_INDEX_HTML, tempWebDist } from './helpers/web-dist';
import * as sourceRenderer from '../src/web/ssr/render';
import type { PageRenderer } from '../src/shared/prerender';

// Hot reads answered before Fastify: only a real socket goes that way (inject calls Fastify directly).
let t: TestApp;
let base: string;
let owner: TestUser;
let serverId: number;

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const BROWSER = 'Mozilla/5.0 (Linux; Android 14) Mobile';

function request(path: string, headers: Record<string, string> = {}, method = 'GET', on = base): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .request(on + path, { method, headers: { 'user-agent': BROWSER, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject)
      .end();
  });
}

const decoded = (res: { headers: http.OutgoingHttpHeaders; body: Buffer }): string => {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.body).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(res.body).toString();
  return res.body.toString();
};

/** What must be equal between two answers to one request: all but what differs per response. */
const PER_RESPONSE = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const stableHeaders = (headers: http.OutgoingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_RESPONSE.has(name)));

const hits = () => t.app.ctx.front.hits;

beforeAll(async () => {
  t = await createTestApp({
    env: { TRUST_PROXY: '127.0.0.1' },
    // Answers are held for a minute: only a change may make them go.
    build: { listCacheTtlMs: 60_000, counting: { flushMs: 0 } },
  });
  owner = await createUser(t.app, { role: 'server_owner' });
  for (let i = 0; i < 12; i++) serverId = (await createServer(t.app, owner.row.id, { name: `Front ${i}` })).id;
  t.app.ctx.discovery.invalidate();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => t.close());

describe('hot reads answered from memory before the router', () => {
  const urls = () => [
    '/api/player-count',
    '/api/filters/categories',
    '/api/servers/just-joined',
    '/api/server-of-the-weekend',
    '/api/servers?sort=likes&limit=10',
    '/api/servers',
    `/api/servers/${serverId}`,
  ];

  it('sends the same bytes and headers as the route, in every encoding', async () => {
    for (const url of urls()) {
      await request(url);
      for (const encoding of ['br', 'gzip', '']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        // The same visitor (address and browser) whose view was counted already: both show the same count.
        const viaRoute = await t.app.inject({ method: 'GET', url, headers: { 'user-agent': BROWSER, ...headers } });
        expect(viaRoute.statusCode, url).toBe(200);
        // The first request over a socket may load the answer; the next is held.
        await request(url, headers);
        const before = hits();
        const held = await request(url, headers);
        expect(hits(), `${url} ${encoding}`).toBe(before + 1);
        expect(held.status).toBe(200);
        expect(stableHeaders(held.headers), `${url} ${encoding}`).toEqual(stableHeaders(viaRoute.headers));
        expect(decoded(held), url).toBe(decoded({ headers: viaRoute.headers, body: viaRoute.rawPayload }));
        expect(held.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
        // Sized, as the route sends it: not chunked.
        expect(held.headers['content-length']).toBe(String(held.body.length));
        expect(held.headers['transfer-encoding']).toBeUndefined();
        expect(held.headers['content-security-policy']).toContain("default-src 'self'");
      }
    }
  });

  it('answers 304 to the ETag held, and keeps a sane request id given', async () => {
    for (const url of urls()) {
      const first = await request(url);
      const before = hits();
      const again = await request(url, { 'if-none-match': first.headers.etag as string, 'x-request-id': 'trace-42' });
      expect(hits(), url).toBe(before + 1);
      expect(again.status, url).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['x-request-id']).toBe('trace-42');
      expect(again.headers['x-content-type-options']).toBe('nosniff');
      const spoofed = await request(url, { 'x-request-id': 'not a sane id; <script>' });
      expect(spoofed.headers['x-request-id']).not.toContain('<');
    }
  });

  it('leaves a caller with a token, a HEAD and a near-miss URL to the router', async () => {
    const player = await createUser(t.app);
    const url = `/api/servers/${serverId}`;
    await request(url);
    const before = hits();
    const mine = await request(url, player.headers);
    expect(JSON.parse(mine.body.toString()).viewer).not.toBeNull();
    expect((await request(url, {}, 'HEAD')).status).toBe(200);
    expect((await request(`${url}?x=1`)).status).toBe(200);
    expect(JSON.parse((await request(url, { authorization: 'Bearer not.a.token' })).body.toString()).viewer).toBeNull();
    expect(hits()).toBe(before);
  });

  it("answers a logged-in caller's lists and feeds from memory, as the route answers them, but never a server page", async () => {
    const player = await createUser(t.app);
    for (const authorization of [player.headers.authorization!, 'Bearer not.a.token']) {
      for (const url of urls().slice(0, -1)) {
        await request(url);
        const viaRoute = await t.app.inject({ method: 'GET', url, headers: { 'user-agent': BROWSER, authorization } });
        expect(viaRoute.statusCode, url).toBe(200);
        const before = hits();
        const held = await request(url, { authorization });
        expect(hits(), url).toBe(before + 1);
        expect(held.status).toBe(200);
        expect(stableHeaders(held.headers), url).toEqual(stableHeaders(viaRoute.headers));
        expect(decoded(held), url).toBe(decoded({ headers: viaRoute.headers, body: viaRoute.rawPayload }));
      }
    }
    // A page carries the caller's own state (`viewer`): the route answers it.
    const page = `/api/servers/${serverId}`;
    await request(page);
    const before = hits();
    expect(JSON.parse((await request(page, player.headers)).body.toString()).viewer).not.toBeNull();
    expect(hits()).toBe(before);
  });

  it('never answers a list or page a vote or a removal changed', async () => {
    const voter = await createUser(t.app);
    const url = '/api/servers?sort=likes&limit=10';
    await request(url);
    await request(url);
    const likes = () =>
      (JSON.parse(decoded(awaitedList!)) as Array<{ id: string; likes: number }>).find((s) => s.id === String(serverId))?.likes;
    const held = hits();
    let awaitedList: Raw | undefined = await request(url);
    expect(hits()).toBe(held + 1);
    const before = likes() ?? 0;
    const vote = await t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/like`, headers: voter.headers });
    expect(vote.statusCode).toBe(200);
    awaitedList = await request(url);
    expect(likes()).toBe(before + 1);

    const page = `/api/servers/${serverId}`;
    await request(page);
    expect(JSON.parse((await request(page)).body.toString()).likes).toBe(before + 1);
    const admin = await createUser(t.app, { role: 'admin' });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/servers/${serverId}`, headers: admin.headers })).statusCode).toBe(204);
    expect((await request(page)).status).toBe(404);
    expect(JSON.parse(decoded(await request(url))).some((s: { id: string }) => s.id === String(serverId))).toBe(false);
  });

  it('keeps an HTTP/1.0 keep-alive connection open, as the route does', async () => {
    await request('/api/player-count');
    const before = hits();
    const replies = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
      let text = '';
      const ask = 'GET /api/player-count HTTP/1.0\r\nConnection: keep-alive\r\n\r\n';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const answers = text.split('HTTP/1.1 200').length - 1;
        if (answers === 1 && text.endsWith('}')) socket.write(ask);
        if (answers === 2 && text.endsWith('}')) {
          socket.end();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.write(ask);
    });
    expect(replies.split('HTTP/1.1 200')).toHaveLength(3);
    expect(replies.toLowerCase()).not.toContain('transfer-encoding');
    expect(hits()).toBe(before + 2);
  });

  it("answers the web app's timestamped calls from memory, as the same URL without the timestamp", async () => {
    const stamped = (url: string, t: number) => `${url}${url.includes('?') ? '&' : '?'}t=${t}`;
    // The server of the other tests is gone by now (one removes it): another one's page.
    for (const url of [...urls().slice(0, -1), `/api/servers/${serverId - 2}`]) {
      await request(url);
      const plain = await request(url, { 'accept-encoding': 'br' });
      expect(plain.status, url).toBe(200);
      // A new timestamp on every call, as the app sends them.
      for (const t of [Date.now(), Date.now() + 1]) {
        const before = hits();
        const held = await request(stamped(url, t), { 'accept-encoding': 'br' });
        expect(hits(), stamped(url, t)).toBe(before + 1);
        expect(held.status).toBe(200);
        expect(stableHeaders(held.headers), url).toEqual(stableHeaders(plain.headers));
        expect(decoded(held), url).toBe(decoded(plain));
      }
    }
    // Only ever asked for with a timestamp (a list is held once asked for twice): held under the plain URL all the same.
    const list = '/api/servers?sort=new&limit=7';
    await request(stamped(list, 1));
    await request(stamped(list, 2));
    const before = hits();
    await request(stamped(list, 3));
    await request(list);
    expect(hits()).toBe(before + 2);
    // A `t` that is not a timestamp, or one stuck to another parameter, is a different URL: the route answers it.
    for (const url of [`${list}&t=abc`, `${list}&t=12x`, `${list}&at=1`, `/api/player-count?t=`]) {
      const routed = hits();
      expect((await request(url)).status, url).toBe(200);
      expect(hits(), url).toBe(routed);
    }
  });

  it('keeps only the plain spelling of a URL: padded or unknown parameters go through the route', async () => {
    const page = `/api/servers/${serverId - 1}`;
    const list = '/api/servers?sort=new&limit=5';
    for (const url of [page, list]) {
      await request(url);
      await request(url);
    }
    const before = hits();
    const variants = [
      `${page}?pad=${'x'.repeat(300)}`,
      `${page}?a=1`,
      `${list}&pad=1`,
      `${list}&q=${'y'.repeat(40)}${'&sort=new'.repeat(30)}`,
    ];
    for (const url of variants) {
      for (let i = 0; i < 3; i++) expect((await request(url)).status, url).toBeLessThan(500);
    }
    expect(hits()).toBe(before);
    // The plain spellings are still answered from memory.
    await request(page);
    await request(list);
    expect(hits()).toBe(before + 2);
  });

  it('counts a view for every visitor it answers, by the address the proxy forwarded', async () => {
    const server = await createServer(t.app, owner.row.id, { name: 'Front viewed' });
    const page = `/api/servers/${server.id}`;
    // A page is held from its second ask (the first may be the only one).
    for (let ask = 0; ask < 2; ask++) await request(page, { 'x-forwarded-for': '198.51.100.1' });
    const before = hits();
    const networks = ['203.0.113.9', '192.0.2.77', '100.64.3.4'];
    for (const ip of networks) {
      const res = await request(page, { 'x-forwarded-for': ip });
      expect(JSON.parse(res.body.toString()).views).toBe(1);
    }
    // The same visitor again is not a new view.
    await request(page, { 'x-forwarded-for': networks[0]! });
    expect(hits()).toBe(before + networks.length + 1);
    await t.app.ctx.discovery.flushCounts();
    const rows = await t.app.ctx.db.selectFrom('serverViews').select('viewer').where('serverId', '=', server.id).execute();
    expect(rows).toHaveLength(networks.length + 1);
  });

  it('offers a server page only once the page cache holds it: pages asked once leave the table as it was', async () => {
    const front = t.app.ctx.front;
    const pages = [];
    for (let i = 0; i < 5; i++) pages.push(`/api/servers/${(await createServer(t.app, owner.row.id, { name: `Front once ${i}` })).id}`);
    const offered = front.offeredSize;
    const missed = front.misses;
    const held = hits();
    // Each opened once, as shared links and crawlers open them: made and sent, nothing offered.
    for (const page of pages) expect((await request(page)).status).toBe(200);
    expect(front.offeredSize).toBe(offered);
    // The second ask goes through the route (not a front-cache miss: nothing was offered), which
    // keeps the page and offers it; the third is answered before the router.
    const [page] = pages;
    const second = await request(page!);
    expect(front.misses).toBe(missed);
    expect(hits()).toBe(held);
    expect(front.offeredSize).toBe(offered + 1);
    const third = await request(page!);
    expect(hits()).toBe(held + 1);
    expect(decoded(third)).toBe(decoded(second));
  });

  it('counts no view for a crawler it answers', async () => {
    const server = await createServer(t.app, owner.row.id, { name: 'Front crawled' });
    const page = `/api/servers/${server.id}`;
    for (let ask = 0; ask < 2; ask++) await request(page, { 'x-forwarded-for': '198.51.100.2' });
    const before = hits();
    const bot = await request(page, { 'x-forwarded-for': '203.0.113.50', 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
    expect(hits()).toBe(before + 1);
    expect(JSON.parse(bot.body.toString()).views).toBe(0);
    await t.app.ctx.discovery.flushCounts();
    const rows = await t.app.ctx.db.selectFrom('serverViews').select('viewer').where('serverId', '=', server.id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('hot reads from memory without a trusted proxy', () => {
  it('ignores a forged X-Forwarded-For: one address is one viewer however many it claims', async () => {
    const direct = await createTestApp({ build: { listCacheTtlMs: 60_000, counting: { flushMs: 0 } } });
    try {
      const owner2 = await createUser(direct.app, { role: 'server_owner' });
      const server = await createServer(direct.app, owner2.row.id, { name: 'Front forged' });
      await direct.app.listen({ port: 0, host: '127.0.0.1' });
      const address = direct.app.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/servers/${server.id}`;
      const get = (forwarded: string) =>
        new Promise<void>((resolve, reject) => {
          http
            .get(url, { headers: { 'user-agent': BROWSER, 'x-forwarded-for': forwarded } }, (res) => {
              res.resume();
              res.on('end', resolve);
            })
            .on('error', reject);
        });
      const before = direct.app.ctx.front.hits;
      for (let i = 1; i <= 20; i++) await get(`198.18.${i}.1`);
      // The page is held from its second ask: every later one is answered from memory.
      expect(direct.app.ctx.front.hits).toBeGreaterThanOrEqual(before + 18);
      await direct.app.ctx.discovery.flushCounts();
      const rows = await direct.app.ctx.db.selectFrom('serverViews').select('viewer').where('serverId', '=', server.id).execute();
      expect(rows).toHaveLength(1);
    } finally {
      await direct.close();
    }
  });
});

const LANDING_HTML = '<!doctype html><html><head><title>RP</title></head><body><div id="root"><h1>Landing</h1></div></body></html>';

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

/** An app serving a built web app with the page renderer, listening on a socket. */
async function pageApp(freshForMs: number, pageRenderer: PageRenderer = sourceRenderer) {
  const dist = tempWebDist({ 'index.html': APP_INDEX_HTML, 'landing.html': LANDING_HTML });
  const app = await createTestApp({ build: { webDist: dist.dir, listCacheTtlMs: freshForMs, pageRenderer } });
  const pageOwner = await createUser(app.app, { role: 'server_owner', plan: 'Pro' });
  const id = (await createServer(app.app, pageOwner.row.id, { name: 'Front Page RP' })).id;
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  const on = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    ...app,
    id,
    get: (url: string, headers: Record<string, string> = {}, method = 'GET') => request(url, headers, method, on),
    /** Renames the server as its owner does, through the API; answers the status. */
    rename: async (name: string) => {
      const body = multipart([{ name: 'name', value: name }]);
      const res = await app.app.inject({
        method: 'PUT',
        url: `/api/servers/${id}/customize`,
        headers: { ...pageOwner.headers, ...body.headers },
        payload: body.payload,
      });
      return res.statusCode;
    },
    hits: () => app.app.ctx.front.hits,
    close: async () => {
      await app.close();
      dist.remove();
    },
  };
}

describe('pages answered from memory before the router', () => {
  let pages: Awaited<ReturnType<typeof pageApp>>;
  // Held for a minute: every page asked twice in a row is answered from memory the second time.
  beforeAll(async () => {
    pages = await pageApp(60_000);
  });
  afterAll(() => pages.close());

  it('sends the landing page and the rendered pages as the route does, in every encoding, and 304', async () => {
    for (const url of ['/', '/home', '/list', '/list?tab=popular', '/search', `/servers/${pages.id}`]) {
      for (const encoding of ['br', 'gzip', '']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        await pages.get(url, headers);
        const viaRoute = await pages.app.inject({ method: 'GET', url, headers: { 'user-agent': BROWSER, ...headers } });
        expect(viaRoute.statusCode, url).toBe(200);
        const before = pages.hits();
        const held = await pages.get(url, headers);
        expect(pages.hits(), `${url} ${encoding}`).toBe(before + 1);
        expect(held.status).toBe(200);
        expect(held.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(stableHeaders(held.headers), `${url} ${encoding}`).toEqual(stableHeaders(viaRoute.headers));
        expect(decoded(held), url).toBe(decoded({ headers: viaRoute.headers, body: viaRoute.rawPayload }));
        expect(held.headers['content-length']).toBe(String(held.body.length));
      }
      const etag = (await pages.get(url)).headers.etag as string;
      const before = pages.hits();
      const notModified = await pages.get(url, { 'if-none-match': etag });
      expect(pages.hits()).toBe(before + 1);
      expect(notModified.status).toBe(304);
      expect(notModified.body).toHaveLength(0);
      const viaRoute = await pages.app.inject({ method: 'GET', url, headers: { 'user-agent': BROWSER, 'if-none-match': etag } });
      expect(viaRoute.statusCode).toBe(304);
      expect(stableHeaders(notModified.headers), url).toEqual(stableHeaders(viaRoute.headers));
    }
    expect(decoded(await pages.get('/'))).toContain('<h1>Landing</h1>');
    // Rendered with its content, not the frame.
    expect(decoded(await pages.get(`/servers/${pages.id}`))).toContain('Front Page RP');
  });

  it('keeps only the pages it rendered, under the spelling each is cached by: anything else, HEAD and a token go through the route', async () => {
    const others = [
      '/list?tab=hot',
      '/home?utm=1',
      `/servers/${pages.id}/`,
      `/SERVERS/${pages.id}`,
      `/servers/0${pages.id}`,
      '/list/',
      // A search with words in its address: the app's frame, drawn by the app (the search as it opens is held).
      '/search?q=Front',
      '/no-such-page',
      // A server that does not exist: its page is the app's frame, never answered from memory.
      '/servers/999999',
    ];
    const before = pages.hits();
    // Each twice: a spelling offered on the first request would be answered from memory on the second.
    for (const url of others) for (let i = 0; i < 2; i++) expect((await pages.get(url)).status, url).toBeLessThan(500);
    expect(pages.hits()).toBe(before);
    // `/home` itself is held: answered from memory right before the HEAD and the token are not.
    await pages.get('/home');
    const held = pages.hits();
    expect((await pages.get('/home')).status).toBe(200);
    expect(pages.hits()).toBe(held + 1);
    expect((await pages.get('/home', {}, 'HEAD')).status).toBe(200);
    expect((await pages.get('/home', { authorization: 'Bearer x' })).status).toBe(200);
    expect(pages.hits()).toBe(held + 1);
  });
});

describe('pages from memory go stale with the page cache', () => {
  it('shows a renamed server once the page is made again', async () => {
    const pages = await pageApp(1000);
    try {
      const url = `/servers/${pages.id}`;
      const title = async () => titleOf(decoded(await pages.get(url)));
      // Held (and offered to the front cache) from its second ask.
      expect(await title()).toBe('Front Page RP · RP Servers');
      expect(await title()).toBe('Front Page RP · RP Servers');
      const before = pages.hits();
      expect(await title()).toBe('Front Page RP · RP Servers');
      expect(pages.hits()).toBe(before + 1);
      await pages.app.ctx.db.updateTable('servers').set({ name: 'Front Renamed RP' }).where('id', '=', pages.id).execute();
      await expect.poll(title, { timeout: 5000, interval: 100 }).toBe('Front Renamed RP · RP Servers');
    } finally {
      await pages.close();
    }
  });
});

describe('pages from memory are made again when what they show changes', () => {
  it('shows a renamed server at once and a removed one no more, however long pages stay fresh', async () => {
    const pages = await pageApp(60_000);
    try {
      const url = `/servers/${pages.id}`;
      const title = async () => titleOf(decoded(await pages.get(url)));
      // Held (and offered to the front cache) from its second ask.
      expect(await title()).toBe('Front Page RP · RP Servers');
      expect(await title()).toBe('Front Page RP · RP Servers');
      expect(decoded(await pages.get('/home'))).toContain('Front Page RP');
      const before = pages.hits();
      expect(await title()).toBe('Front Page RP · RP Servers');
      expect(pages.hits()).toBe(before + 1);

      expect(await pages.rename('Front Renamed RP')).toBe(200);
      expect(await title()).toBe('Front Renamed RP · RP Servers');
      expect(decoded(await pages.get('/home'))).toContain('Front Renamed RP');

      const admin = await createUser(pages.app, { role: 'admin' });
      const removed = await pages.app.inject({ method: 'DELETE', url: `/api/admin/servers/${pages.id}`, headers: admin.headers });
      expect(removed.statusCode).toBe(204);
      for (let i = 0; i < 2; i++) {
        expect(decoded(await pages.get(url))).not.toContain('Front Renamed RP');
        expect(decoded(await pages.get('/home'))).not.toContain('Front Renamed RP');
      }
    } finally {
      await pages.close();
    }
  });

  it('keeps no page whose rendering began before the change, and lets it cover no newer one', async () => {
    // The first rendering waits until told: the server is renamed meanwhile.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const slowFirst: PageRenderer = {
      ...sourceRenderer,
      renderPage: async (location, answers, renderedAt, locale) => {
        const html = await sourceRenderer.renderPage(location, answers, renderedAt, locale);
        if (first) {
          first = false;
          await gate;
        }
        return html;
      },
    };
    const pages = await pageApp(60_000, slowFirst);
    try {
      const url = `/servers/${pages.id}`;
      const heading = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
      const before = pages.get(url);
      await expect.poll(() => first, { timeout: 5000 }).toBe(false);
      expect(await pages.rename('Front Renamed RP')).toBe(200);
      // Asked after the change: a rendering of its own, not the one under way.
      expect(heading(decoded(await pages.get(url)))).toBe('Front Renamed RP');
      release();
      // The request made before the change gets the page as it was then.
      expect(heading(decoded(await before))).toBe('Front Page RP');
      for (let i = 0; i < 2; i++) {
        const html = decoded(await pages.get(url));
        expect(heading(html)).toBe('Front Renamed RP');
        expect(titleOf(html)).toBe('Front Renamed RP · RP Servers');
      }
    } finally {
      release();
      await pages.close();
    }
  });
});
