import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../src/web/i18n/catalogs/de/server.json';
import en from '../src/web/i18n/catalogs/en/server.json';
import pl from '../src/web/i18n/catalogs/pl/server.json';
import tr from '../src/web/i18n/catalogs/tr/server.json';
import { serverT } from '../src/server/i18n/translate';
import { LOCALES } from '../src/shared/i18n/locales';
import * as sourceRenderer from '../src/web/ssr/render';
import { createServer, createUser } from './helpers/factories';
import { createTestApp, type TestApp } from './helpers/test-app';
import { APP_INDEX_HTML, tempWebDist } from './helpers/web-dist';

/** Text as React writes it into HTML. */
const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.indexOf('<script id="rp-answers"'));
const LOGIN_TO_FOLLOW = 'server.follow.login' as const;

describe('pages in the visitor’s language', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;
  let serverId: number;

  beforeAll(async () => {
    const index = APP_INDEX_HTML.replace('</head>', '  <link rel="manifest" href="/manifest.webmanifest">\n  </head>');
    dist = tempWebDist({
      'index.html': index,
      'manifest.webmanifest': JSON.stringify({ name: 'RP Servers', description: 'x', lang: 'en' }),
    });
    t = await createTestApp({ build: { webDist: dist.dir, pageRenderer: sourceRenderer, listCacheTtlMs: 60_000 } });
    const owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id, { name: 'Sprachen RP' })).id;
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  const page = (headers: Record<string, string> = {}, query = '') => t.app.inject({ url: `/servers/${serverId}${query}`, headers });

  it('follows the browser’s Accept-Language, and says it varies by it', async () => {
    const res = await page({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="de"');
    expect(res.headers['content-language']).toBe('de');
    expect(res.headers.vary).toBe('Accept-Encoding, Accept-Language, Cookie');
    expect(rootOf(res.body)).toContain(de[LOGIN_TO_FOLLOW]);
    expect(rootOf(res.body)).not.toContain(en[LOGIN_TO_FOLLOW]);
    // The page's description and preview are in its language too.
    expect(res.body).toContain('<meta property="og:locale" content="de" />');
  });

  it('renders the server page in each of the seven languages, from its own catalog', async () => {
    const catalogs = await Promise.all(
      LOCALES.map((l) => import(`../src/web/i18n/catalogs/${l}/server.json`) as Promise<{ default: Record<string, string> }>),
    );
    for (const [at, locale] of LOCALES.entries()) {
      const res = await page({ 'accept-language': locale });
      expect(res.body, locale).toContain(`<html lang="${locale}"`);
      expect(res.headers['content-language']).toBe(locale);
      expect(rootOf(res.body), locale).toContain(escapeText(catalogs[at]!.default[LOGIN_TO_FOLLOW]!));
    }
  });

  it('English for a browser that asks for none of the site’s languages, or for nothing', async () => {
    for (const headers of [{ 'accept-language': 'ja-JP,ja;q=0.9' }, {}, { 'accept-language': 'de;q=0, *;q=0.1' }] as Array<
      Record<string, string>
    >) {
      const res = await page(headers);
      expect(res.body).toContain('<html lang="en"');
      expect(rootOf(res.body)).toContain(en[LOGIN_TO_FOLLOW]);
    }
  });

  it('a language chosen on the device (its cookie) wins over the browser’s; a pinned URL wins over both and varies by nothing else', async () => {
    const chosen = await page({ 'accept-language': 'de', cookie: 'other=1; rp_lang=pl' });
    expect(chosen.body).toContain('<html lang="pl"');
    expect(rootOf(chosen.body)).toContain(pl[LOGIN_TO_FOLLOW]);

    const pinned = await page({ 'accept-language': 'de', cookie: 'rp_lang=pl' }, '?lang=tr');
    expect(pinned.body).toContain('<html lang="tr"');
    expect(rootOf(pinned.body)).toContain(tr[LOGIN_TO_FOLLOW]);
    expect(pinned.headers.vary).toBe('Accept-Encoding');

    // Nonsense in either is ignored, never an error.
    for (const [headers, query] of [
      [{ cookie: 'rp_lang=%E0%A4%A' }, ''],
      [{ cookie: 'rp_lang=xx' }, '?lang=<script>'],
      [{ 'accept-language': 'q=1;;;,,,'.repeat(200) }, '?lang=%'],
    ] as const) {
      const res = await page(headers, query);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<html lang="en"');
    }
  });

  it('each language is cached apart: a German page never reaches an English visitor from the cache', async () => {
    const first = await page({ 'accept-language': 'de' });
    const english = await page({ 'accept-language': 'en-US' });
    const again = await page({ 'accept-language': 'de' });
    expect(english.body).toContain('<html lang="en"');
    expect(again.body).toContain('<html lang="de"');
    expect(first.headers.etag).toBe(again.headers.etag);
    expect(english.headers.etag).not.toBe(first.headers.etag);
  });

  it('names every language’s address of the page for search engines, and lists them in the sitemap', async () => {
    const res = await page({ 'accept-language': 'fr' });
    for (const lang of ['en', 'pt-BR', 'es', 'fr', 'de', 'pl', 'tr']) {
      const href = lang === 'en' ? `http://localhost:3000/servers/${serverId}` : `http://localhost:3000/servers/${serverId}?lang=${lang}`;
      expect(res.body).toContain(`<link rel="alternate" hreflang="${lang}" href="${href}" />`);
    }
    expect(res.body).toContain(`<link rel="alternate" hreflang="x-default" href="http://localhost:3000/servers/${serverId}" />`);
    expect(res.body).toContain(`<meta property="og:url" content="http://localhost:3000/servers/${serverId}?lang=fr" />`);

    const sitemap = await t.app.inject({ url: '/sitemap.xml' });
    expect(sitemap.body).toContain(`<loc>http://localhost:3000/servers/${serverId}?lang=pt-BR</loc>`);
    expect(sitemap.body).toContain(`<xhtml:link rel="alternate" hreflang="de" href="http://localhost:3000/servers/${serverId}?lang=de"/>`);
    expect(sitemap.body).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
  });

  it('the site’s own page text and the app’s manifest are in the language', async () => {
    const home = await t.app.inject({ url: '/search', headers: { 'accept-language': 'es' } });
    expect(home.body).toContain(`<meta name="description" content="${serverT('es')('meta.description')}" />`);
    expect(serverT('es')('meta.description')).not.toBe(serverT('en')('meta.description'));
    expect(home.body).toContain('href="/manifests/es.webmanifest"');
    const manifest = await t.app.inject({ url: '/manifests/es.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.json()).toMatchObject({ name: 'RP Servers', description: serverT('es')('meta.manifestDescription'), lang: 'es' });
    expect((await t.app.inject({ url: '/manifests/xx.webmanifest' })).statusCode).toBe(404);
  });
});
