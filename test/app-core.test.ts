import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { captureLogs } from './helpers/log-capture';
import { MINIMAL_INDEX_HTML, tempWebDist } from './helpers/web-dist';

describe('server core', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers health and readiness', async () => {
    expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });

  it('sends security headers: CSP without inline script, nosniff, no X-Powered-By, a request id', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
    // WebSockets to this site's own origin only, not to any host.
    const connectSrc = /connect-src ([^;]*)/.exec(csp)?.[1];
    expect(connectSrc?.split(' ')).toEqual(["'self'", 'ws://localhost:3000']);
  });

  it('answers unknown API paths with 404 JSON and other methods likewise', async () => {
    const res = await t.app.inject({ url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Not found' });
    expect((await t.app.inject({ method: 'DELETE', url: '/api/health' })).statusCode).toBe(404);
  });

  it('never answers 500 to malformed JSON, wrong types, huge or odd bodies', async () => {
    const jsonTo = (url: string, payload: string) =>
      t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
    const malformed = await jsonTo('/api/login', '{"username":');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'Request body is not valid JSON' });

    // A JSON content type with no body at all is a request without one: a route that takes none
    // answers as usual, one that needs a body says what is missing.
    expect((await jsonTo('/api/logout', '')).statusCode).toBe(200);
    const noFields = await jsonTo('/api/login', '');
    expect(noFields.statusCode).toBe(400);
    expect(noFields.json()).toMatchObject({ error: 'All fields are required' });
    for (const poisoned of ['{"__proto__":{"role":"admin"}}', '{"constructor":{"prototype":{"role":"admin"}}}'])
      expect((await jsonTo('/api/login', poisoned)).json(), poisoned).toMatchObject({ error: 'Request body is not valid JSON' });

    const wrongTypes = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 42, password: ['x'] } });
    expect(wrongTypes.statusCode).toBe(400);
    expect(wrongTypes.json()).toMatchObject({ error: 'All fields are required' });

    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'a'.repeat(400_000), password: 'x' }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: 'Request is too large' });

    const text = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ error: 'Unsupported content type' });

    const plain = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expect(plain.statusCode).toBe(400);

    const empty = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);

    const arrayBody = await t.app.inject({ method: 'POST', url: '/api/register', payload: [1, 2] });
    expect(arrayBody.statusCode).toBe(400);
  });

  it('accepts and ignores the client t parameter and no-cache header', async () => {
    const res = await t.app.inject({ url: `/api/player-count?t=${Date.now()}`, headers: { 'cache-control': 'no-cache' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 0 });
  });

  it('serves an OpenAPI document generated from the route schemas at /api/docs', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/register', '/api/user', '/api/player-count', '/api/health']),
    );
    expect(doc.paths['/api/register']?.post?.requestBody).toBeDefined();
    const ui = await t.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('tells that the web app is not built when dist is missing', async () => {
    const res = await t.app.inject({ url: '/home' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});

describe('serving the web app', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;
  beforeAll(async () => {
    dist = tempWebDist({ 'index.html': MINIMAL_INDEX_HTML, 'assets/app-abc123.js': 'console.log(1)' });
    t = await createTestApp({ build: { webDist: dist.dir } });
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  it('serves index.html for any unknown non-API path, so the router can send it to /', async () => {
    for (const url of ['/', '/home', '/some/unknown/path?x=1']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable', async () => {
    const res = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('keeps unknown API paths and uploads out of the fallback', async () => {
    expect((await t.app.inject({ url: '/api/nope' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/uploads/missing.webp' })).statusCode).toBe(404);
  });
});

describe('behind TLS', () => {
  it('sends HSTS when PUBLIC_URL is https', async () => {
    const t = await createTestApp({ env: { PUBLIC_URL: 'https://rp.example.com' } });
    try {
      const res = await t.app.inject({ url: '/api/health' });
      expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
      // Sockets may reach this site only, over TLS.
      const connectSrc = /connect-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
      expect(connectSrc?.split(' ')).toEqual(["'self'", 'wss://rp.example.com']);
    } finally {
      await t.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  it('warns at start-up when every X-Forwarded-For is trusted, and not for a hop count', async () => {
    for (const [value, warned] of [
      ['true', 1],
      ['1', 0],
    ] as const) {
      const logs = captureLogs('warn');
      const t = await createTestApp({ env: { TRUST_PROXY: value }, build: { logger: logs.logger } });
      try {
        const warnings = logs.entries.filter((e) => e.level === 40 && e.msg.includes('TRUST_PROXY=true'));
        expect(warnings, `TRUST_PROXY=${value}`).toHaveLength(warned);
        if (warned) expect(warnings[0]?.msg).toMatch(/number of proxy hops or the proxies' addresses/);
      } finally {
        await t.close();
      }
    }
  });
});
