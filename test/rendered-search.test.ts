import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageAnswers } from '../src/shared/prerender';
import * as renderer from '../src/web/ssr/render';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { APP_INDEX_HTML, tempWebDist } from './helpers/web-dist';

const answersOf = (html: string) =>
  JSON.parse(/<script id="rp-answers" type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null') as PageAnswers | null;
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.indexOf('<script id="rp-answers"'));

// `/search` as it opens is rendered on the server like `/home` (docs/decisions/059-first-load-js.md):
// its first results paint from the HTML and the app, started at the visitor's first move, hydrates them.
describe('the search page rendered on the server', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;

  beforeAll(async () => {
    dist = tempWebDist({ 'index.html': APP_INDEX_HTML });
    t = await createTestApp({ build: { webDist: dist.dir, pageRenderer: renderer, listCacheTtlMs: 0 } });
    const owner = await createUser(t.app, { role: 'server_owner' });
    await createServer(t.app, owner.row.id, { name: 'Searchable Harbour RP', currentPlayers: 7 });
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  it('comes with its first page of results and the filters, from the answers the app asks for', async () => {
    const res = await t.app.inject({ url: '/search' });
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toMatch(/<h1[^>]*>Search Servers<\/h1>/);
    expect(root).toContain('data-testid="search-results"');
    expect(root).toContain('Searchable Harbour RP');
    expect(root).not.toContain('Searching…');
    // The list the page's hook asks for (search-page.tsx), and the filter catalogue.
    expect(Object.keys(answersOf(res.body) ?? {})).toEqual(['/api/servers?sort=likes&limit=24', '/api/filters/categories']);
  });

  it('is rendered in the language the address pins, which is not part of the search', async () => {
    const res = await t.app.inject({ url: '/search?lang=de' });
    expect(res.body).toContain('<html lang="de"');
    expect(answersOf(res.body)).not.toBeNull();
  });
});

describe('the search page, with pages kept as made', () => {
  let t: TestApp;
  let dist: ReturnType<typeof tempWebDist>;

  beforeAll(async () => {
    dist = tempWebDist({ 'index.html': APP_INDEX_HTML });
    // Kept for a minute: a search drawn by the app must not be answered with the rendered search
    // kept for the same path, nor the other way round.
    t = await createTestApp({ build: { webDist: dist.dir, pageRenderer: renderer, listCacheTtlMs: 60_000 } });
  });
  afterAll(async () => {
    await t.close();
    dist.remove();
  });

  it('a search with words, filters, a sort or a page in its address is drawn by the app, not rendered', async () => {
    expect(answersOf((await t.app.inject({ url: '/search' })).body)).not.toBeNull();
    for (const url of [
      '/search?q=harbour',
      '/search?filters=serious',
      '/search?sort=new',
      '/search?page=2',
      '/search?online=1',
      '/Search',
      '/search/',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div class="frame">Loading…</div>');
      expect(answersOf(res.body), url).toBeNull();
    }
    // And the search as it opens is still the rendered one.
    expect(answersOf((await t.app.inject({ url: '/search' })).body)).not.toBeNull();
  });
});
