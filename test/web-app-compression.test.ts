import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../scripts/precompress.mjs';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { MINIMAL_INDEX_HTML, tempWebDist } from './helpers/web-dist';

describe('compressed web app', () => {
  let t: TestApp;
  let dist: string;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}];\n`;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(process.cwd(), 'tmp-dist-'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><title>RP</title>${'<link rel="modulepreload" href="/assets/x.js" />'.repeat(40)}</head><body><div id="root"></div></body></html>`,
    );
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'tiny-abc123.js'), 'console.log(1)');
    await precompressDir(dist);
    t = await createTestApp({ build: { webDist: dist } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('writes .br and .gz next to text files of at least 1 KB, never for smaller ones', () => {
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dist, 'assets', 'app-abc123.js.br'))).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'))).toString()).toBe(script);
    expect(fs.existsSync(path.join(dist, 'assets', 'tiny-abc123.js.br'))).toBe(false);
  });

  it('serves a hashed asset pre-compressed by Accept-Encoding, immutable, with Vary', async () => {
    const br = await t.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers['vary']).toLowerCase()).toContain('accept-encoding');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await t.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses the app HTML per request encoding, with an ETag that answers 304', async () => {
    const plain = await t.app.inject({ url: '/home' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="root">');

    const br = await t.app.inject({ url: '/home', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers['vary']).toLowerCase()).toContain('accept-encoding');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);

    const gz = await t.app.inject({ url: '/home', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    const again = await t.app.inject({ url: '/home', headers: { 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('negotiates the HTML like the API: brotli, then gzip, q=0 refuses, weak and strong validators match', async () => {
    const pick = async (acceptEncoding: string) =>
      (await t.app.inject({ url: '/home', headers: { 'accept-encoding': acceptEncoding } })).headers['content-encoding'];
    expect(await pick('gzip, deflate, br')).toBe('br');
    expect(await pick('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(await pick('identity')).toBeUndefined();
    const etag = String((await t.app.inject({ url: '/home' })).headers.etag);
    expect(etag).toMatch(/^W\//);
    for (const validator of [etag, etag.slice(2), `"other", ${etag}`]) {
      expect((await t.app.inject({ url: '/home', headers: { 'if-none-match': validator } })).statusCode).toBe(304);
    }
    expect((await t.app.inject({ url: '/home', headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
  });
});

describe('HTML of the landing and server pages from memory', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;
  beforeAll(async () => {
    dist = tempWebDist();
    t = await createTestApp({ build: { webDist: dist.dir, listCacheTtlMs: 300 } });
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  it('serves a path as made for as long as a cached list, then asks its tags again', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id, { name: 'Memory Lane RP' });
    const title = async () => /<title>([^<]*)<\/title>/.exec((await t.app.inject({ url: `/servers/${server.id}` })).body)?.[1];
    // Held from its second ask: the first is made and sent, the second made again and kept.
    expect(await title()).toBe('Memory Lane RP · RP Servers');
    expect(await title()).toBe('Memory Lane RP · RP Servers');
    await t.app.ctx.db.updateTable('servers').set({ name: 'Renamed Lane RP' }).where('id', '=', server.id).execute();
    // Within the cache time: the bytes made before, no database read.
    expect(await title()).toBe('Memory Lane RP · RP Servers');
    await expect.poll(title, { timeout: 3000, interval: 100 }).toBe('Renamed Lane RP · RP Servers');
    // The landing page and the other public pages answer through their own routes, 200 HTML, with a trailing slash too.
    for (const url of ['/', '/home', '/list/', '/search?q=x']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    }
  });
});

describe('the landing page rendered at build time', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;
  const landing =
    '<!doctype html><html><head><title>RP</title></head><body><div id="root"><h1>Prerendered landing</h1></div></body></html>';
  beforeAll(async () => {
    dist = tempWebDist({ 'index.html': MINIMAL_INDEX_HTML, 'landing.html': landing });
    t = await createTestApp({ build: { webDist: dist.dir } });
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  it('is what `/` sends, with its tags; every other page is the app', async () => {
    const home = await t.app.inject({ url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<h1>Prerendered landing</h1>');
    expect(home.body.match(/<title>[^<]+<\/title>/g)).toHaveLength(1);
    expect(home.body).toContain('og:title');
    for (const url of ['/home', '/list', '/servers/1', '/no-such-page', '/?utm_source=x']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body.includes('Prerendered landing'), url).toBe(url === '/?utm_source=x');
    }
  });
});

describe('the chunks of a page, preloaded from its HTML', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;
  beforeAll(async () => {
    dist = tempWebDist({
      'index.html': MINIMAL_INDEX_HTML,
      'route-preloads.json': JSON.stringify({
        '/home': ['/assets/home-1.js'],
        '/servers/:id': ['/assets/server-1.js', '/assets/hero-1.js'],
      }),
    });
    t = await createTestApp({ build: { webDist: dist.dir } });
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  it('lists the chunks the build wrote for the path, and none on other paths', async () => {
    const preloads = async (url: string) =>
      [...(await t.app.inject({ url })).body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" \/>/g)].map((m) => m[1]);
    expect(await preloads('/servers/12')).toEqual(['/assets/server-1.js', '/assets/hero-1.js']);
    expect(await preloads('/servers/12/')).toEqual(['/assets/server-1.js', '/assets/hero-1.js']);
    expect(await preloads('/home?sort=new')).toEqual(['/assets/home-1.js']);
    for (const url of ['/', '/list', '/servers/12/edit', '/servers', '/homepage']) expect(await preloads(url), url).toEqual([]);
  });
});
