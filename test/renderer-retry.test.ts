import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { APP_INDEX_HTML, tempWebDist } from './helpers/web-dist';

/** A page renderer module as the web build writes it (dist/web-ssr/render.js), drawing `/home` only. */
const RENDER_JS = `
export const locationFor = (url) => (url === '/home' ? '/home' : null);
export const requestsFor = (location) => (location === '/home' ? [] : null);
export const renderPage = async () => '<main id="drawn-on-the-server">Home</main>';
`;

describe('the web build’s page renderer, missing at start-up', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;
  beforeAll(async () => {
    // The app's page in <dir>/web, its renderer (not there yet) in <dir>/web-ssr, as the build lays them out.
    dist = tempWebDist({ 'web/index.html': APP_INDEX_HTML });
    t = await createTestApp({ build: { webDist: path.join(dist.dir, 'web'), listCacheTtlMs: 0, rendererRetryMs: 200 } });
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  const home = () => t.app.inject({ method: 'GET', url: '/home' });

  it('serves the app’s frame while it is missing, and pages drawn on the server once it is built', async () => {
    const before = await home();
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Loading…');
    expect(before.body).not.toContain('drawn-on-the-server');

    fs.mkdirSync(path.join(dist.dir, 'web-ssr'));
    fs.writeFileSync(path.join(dist.dir, 'web-ssr', 'render.js'), RENDER_JS);
    // Not looked for again at once: a missing renderer costs no file check per page.
    expect((await home()).body).not.toContain('drawn-on-the-server');

    await new Promise((resolve) => setTimeout(resolve, 250));
    const after = await home();
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('<main id="drawn-on-the-server">Home</main>');
  });
});

describe('the web build’s page renderer, broken at start-up', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;
  const renderJs = () => path.join(dist.dir, 'web-ssr', 'render.js');
  beforeAll(async () => {
    // A deploy caught half-written: the renderer is there but throws as it loads.
    dist = tempWebDist({ 'web/index.html': APP_INDEX_HTML, 'web-ssr/render.js': 'throw new Error("half-written build");\n' });
    t = await createTestApp({ build: { webDist: path.join(dist.dir, 'web'), listCacheTtlMs: 0, rendererRetryMs: 200 } });
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  const home = () => t.app.inject({ method: 'GET', url: '/home' });

  it('serves the app’s frame while it fails, and pages drawn on the server once the build is whole', async () => {
    const before = await home();
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Loading…');
    expect(before.body).not.toContain('drawn-on-the-server');
    // The failure is logged once, with what went wrong.
    expect(t.takeErrors().map((e) => (e as { err?: { message?: string } }).err?.message)).toEqual(['half-written build']);

    fs.writeFileSync(renderJs(), RENDER_JS);
    // A later time than the broken file's, however coarse the file system's clock.
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(renderJs(), later, later);

    await new Promise((resolve) => setTimeout(resolve, 250));
    const after = await home();
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('<main id="drawn-on-the-server">Home</main>');
  });
});
