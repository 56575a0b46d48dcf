import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { chooseEncoding, matchesEtag } from '../src/server/lib/cached-body';
import { serverSchema } from '../src/shared/schemas/server';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  // Answers are cached for a minute here, so only invalidation can make them fresh.
  t = await createTestApp({ build: { listCacheTtlMs: 60_000 } });
  owner = await createUser(t.app, { role: 'server_owner' });
  // Enough servers for a list page far above the compression threshold.
  for (let i = 0; i < 12; i++) await createServer(t.app, owner.row.id);
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const likeOf = (list: Array<{ id: string; likes: number }>, id: number) => list.find((s) => s.id === String(id))?.likes;

describe('cached answers with ETag and 304', () => {
  it('answers 304 with no body when the client holds the same bytes, 200 when they changed', async () => {
    for (const url of ['/api/player-count', '/api/servers/just-joined', '/api/filters/categories', '/api/server-of-the-weekend']) {
      const first = await get(url);
      expect(first.statusCode, url).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag, url).toMatch(/^"[\w-]+"$/);
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(first.headers.vary).toBe('Accept-Encoding');

      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);

      expect((await get(url, { 'if-none-match': `"other", W/${etag}` })).statusCode, url).toBe(304);
      expect((await get(url, { 'if-none-match': '"other"' })).statusCode, url).toBe(200);
    }
  });

  it('keeps the security headers and the request id on cached answers and on 304', async () => {
    const first = await get('/api/player-count');
    const notModified = await get('/api/player-count', { 'if-none-match': first.headers.etag as string });
    for (const res of [first, notModified]) {
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('gives a new ETag once the answer changes', async () => {
    const before = await get('/api/servers?sort=new&limit=3');
    await createServer(t.app, owner.row.id);
    t.app.ctx.discovery.invalidate();
    const after = await get('/api/servers?sort=new&limit=3', { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe('list ETags', () => {
  it('match the same bytes made afresh, and change with a card or a rank', async () => {
    const name = `Etag ${Date.now()}`;
    const a = await createServer(t.app, owner.row.id, { name: `${name} A` });
    await createServer(t.app, owner.row.id, { name: `${name} B` });
    const url = `/api/servers?sort=likes&q=${encodeURIComponent(name)}`;
    const body = async () => {
      // Dropped each time, so every answer is made again from the cards.
      t.app.ctx.discovery.invalidate();
      const res = await get(url);
      return { etag: res.headers.etag as string, text: res.body };
    };
    const first = await body();
    // Cards are serialised without a schema run: every one must still be exactly the schema's shape.
    for (const card of JSON.parse(first.text) as unknown[]) expect(serverSchema.strict().parse(card)).toEqual(card);
    const again = await body();
    expect(again).toEqual(first);
    expect((await get(url, { 'if-none-match': first.etag })).statusCode).toBe(304);

    // A card's text changes.
    await t.app.ctx.db.updateTable('servers').set({ statusMessage: 'new status' }).where('id', '=', a.id).execute();
    const edited = await body();
    expect(edited.text).not.toBe(first.text);
    expect(edited.etag).not.toBe(first.etag);

    // A like on B: its count and every rank it passes change.
    const voter = await createUser(t.app);
    const b = (JSON.parse(edited.text) as Array<{ id: string; name: string }>).find((s) => s.name.endsWith(' B'))!;
    expect((await t.app.inject({ method: 'POST', url: `/api/servers/${b.id}/like`, headers: voter.headers })).statusCode).toBe(200);
    const voted = await body();
    expect(voted.text).not.toBe(edited.text);
    expect(voted.etag).not.toBe(edited.etag);
  });
});

describe('ranks in list answers', () => {
  it('are the ranks the server pages show, before and after a like, for any server id', async () => {
    const app = await createTestApp();
    try {
      const maker = await createUser(app.app, { role: 'server_owner' });
      const name = `Ranked ${Date.now()}`;
      const usual = await createServer(app.app, maker.row.id, { name: `${name} usual` });
      // An id far past the others (a sequence moved on), whose rank JSON is made each time.
      const far = await app.app.ctx.db
        .insertInto('servers')
        .values({ id: 1_048_576 + 17, ownerId: maker.row.id, name: `${name} far`, currentPlayers: 0 })
        .returningAll()
        .executeTakeFirstOrThrow();
      const ranksAgree = async () => {
        const list = (await app.app.inject({ method: 'GET', url: `/api/servers?sort=likes&q=${encodeURIComponent(name)}` })).json<
          Array<{ id: string; rank: unknown }>
        >();
        expect(list.map((s) => s.id).sort()).toEqual([String(usual.id), String(far.id)].sort());
        for (const card of list) {
          const page = (await app.app.inject({ method: 'GET', url: `/api/servers/${card.id}` })).json<{ rank: unknown }>();
          expect(card.rank, card.id).toEqual(page.rank);
          expect(card.rank, card.id).not.toBeNull();
        }
        return Object.fromEntries(list.map((s) => [s.id, JSON.stringify(s.rank)]));
      };
      const before = await ranksAgree();
      const voter = await createUser(app.app);
      expect((await app.app.inject({ method: 'POST', url: `/api/servers/${far.id}/like`, headers: voter.headers })).statusCode).toBe(200);
      const after = await ranksAgree();
      expect(after[String(far.id)]).not.toBe(before[String(far.id)]);
    } finally {
      await app.close();
    }
  });
});

describe('compression negotiation', () => {
  it('sends brotli, gzip or identity as accepted, all the same JSON', async () => {
    const url = '/api/servers?sort=likes&limit=12';
    const plain = await get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const json = plain.json<unknown[]>();
    expect(json).toHaveLength(12);

    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(json);

    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(json);

    const refused = await get(url, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.json()).toEqual(json);

    // One ETag for the one JSON, whatever the encoding on the wire.
    expect(new Set([plain, br, gzip, refused].map((r) => r.headers.etag)).size).toBe(1);
    expect(Number(br.headers['x-total-count'])).toBe(Number(plain.headers['x-total-count']));
  });

  it('leaves small answers uncompressed', async () => {
    const res = await get('/api/player-count', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ count: expect.any(Number) });
  });

  it('reads Accept-Encoding and If-None-Match as HTTP means them', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('gzip, br')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('*')).toBe('br');
    expect(matchesEtag('*', '"abc"')).toBe(true);
    expect(matchesEtag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('"ab"', '"abc"')).toBe(false);
  });
});

describe('targeted invalidation', () => {
  it('a vote refreshes that server page and the likes list at once, and keeps unrelated answers', async () => {
    const voted = await createServer(t.app, owner.row.id, { name: `Voted ${Date.now()}` });
    const other = await createServer(t.app, owner.row.id, { name: `Untouched ${Date.now()}` });
    t.app.ctx.discovery.invalidate();
    const voter = await createUser(t.app);

    // Fill the caches.
    expect((await get(`/api/servers/${voted.id}`)).json().likes).toBe(0);
    expect(likeOf((await get('/api/servers?sort=likes&limit=50')).json(), voted.id)).toBe(0);
    // The first anonymous request counts a view (and shows it); the second is what every later one gets.
    await get(`/api/servers/${other.id}`);
    const otherPage = await get(`/api/servers/${other.id}`);
    // A list is kept from the second time it is asked for (most searches are asked once).
    await get(`/api/servers?sort=new&q=${encodeURIComponent(other.name)}`);
    const otherSearch = await get(`/api/servers?sort=new&q=${encodeURIComponent(other.name)}`);
    expect(otherSearch.json()).toHaveLength(1);

    // A change written behind the app's back shows only where the cache is dropped.
    await t.app.ctx.db.updateTable('servers').set({ statusMessage: 'changed behind the cache' }).where('id', '=', other.id).execute();

    const res = await t.app.inject({ method: 'POST', url: `/api/servers/${voted.id}/like`, headers: voter.headers });
    expect(res.statusCode).toBe(200);

    expect((await get(`/api/servers/${voted.id}`)).json().likes).toBe(1);
    expect(likeOf((await get('/api/servers?sort=likes&limit=50')).json(), voted.id)).toBe(1);
    // The other server's page and a list not showing the voted server are kept as they were.
    const otherAfter = await get(`/api/servers/${other.id}`);
    expect(otherAfter.headers.etag).toBe(otherPage.headers.etag);
    expect(otherAfter.json().statusMessage).not.toBe('changed behind the cache');
    expect((await get(`/api/servers?sort=new&q=${encodeURIComponent(other.name)}`)).headers.etag).toBe(otherSearch.headers.etag);

    // An edit of a server (not a vote) drops every cached list and page.
    t.app.ctx.discovery.invalidate();
    expect((await get(`/api/servers/${other.id}`)).json().statusMessage).toBe('changed behind the cache');
  });

  it("reads every listed server's card ahead in the background, and reads them again after a change", async () => {
    const held = () => t.app.ctx.discovery.cardsHeld();
    const listed = (await t.app.ctx.discovery.searchIndex()).listedIds().length;
    await vi.waitFor(() => expect(held()).toBeGreaterThanOrEqual(listed), { timeout: 10_000, interval: 100 });

    const server = await createServer(t.app, owner.row.id, { name: `Read ahead ${Date.now()}` });
    await t.app.ctx.db.updateTable('servers').set({ statusMessage: 'read again' }).where('id', '=', server.id).execute();
    // What an edit does: every cached answer and card goes, the cards come back from the database.
    t.app.ctx.discovery.invalidate();
    expect(held()).toBe(0);
    await vi.waitFor(() => expect(held()).toBeGreaterThanOrEqual(listed + 1), { timeout: 10_000, interval: 100 });
    const found = (await get(`/api/servers?q=${encodeURIComponent(server.name)}`)).json();
    expect(found.map((s: { statusMessage: string }) => s.statusMessage)).toEqual(['read again']);
  });

  it('has every listed card read when the instance is about to listen, without waiting for the background look', async () => {
    const server = await createServer(t.app, owner.row.id, { name: `Warm ${Date.now()}` });
    // Every card dropped, as at a start: the background looks come every 2 s.
    t.app.ctx.discovery.invalidate();
    expect(t.app.ctx.discovery.cardsHeld()).toBe(0);
    await expect(t.app.ctx.discovery.whenWarm(10_000)).resolves.toBe(true);
    const listed = (await t.app.ctx.discovery.searchIndex()).listedIds();
    expect(listed).toContain(server.id);
    expect(t.app.ctx.discovery.cardsHeld()).toBeGreaterThanOrEqual(listed.length);
  });

  it('answers a vote from the held card with the counters the vote wrote, and lists show the same', async () => {
    const server = await createServer(t.app, owner.row.id, { name: `Held card ${Date.now()}` });
    const voters = await Promise.all([createUser(t.app), createUser(t.app), createUser(t.app)]);
    const cardInList = async () =>
      (await get(`/api/servers?q=${encodeURIComponent(server.name)}`)).json()[0] as { likes: number; dislikes: number };
    // Written behind the app's back: announced, then every listed card is read into memory again.
    t.app.ctx.discovery.invalidate();
    const listed = (await t.app.ctx.discovery.searchIndex()).listedIds().length;
    await vi.waitFor(() => expect(t.app.ctx.discovery.cardsHeld()).toBeGreaterThanOrEqual(listed), { timeout: 10_000, interval: 100 });
    const heldBefore = t.app.ctx.discovery.cardsHeld();

    const answers = [];
    for (const [i, voter] of voters.entries()) {
      const kind = i === 1 ? 'dislike' : 'like';
      const res = await t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/${kind}`, headers: voter.headers });
      expect(res.statusCode).toBe(200);
      answers.push(res.json() as { likes: number; dislikes: number; name: string });
    }
    expect(answers.map((a) => [a.likes, a.dislikes])).toEqual([
      [1, 0],
      [1, 1],
      [2, 1],
    ]);
    expect(answers.every((a) => a.name === server.name)).toBe(true);
    // The votes updated the held card rather than dropping it.
    expect(t.app.ctx.discovery.cardsHeld()).toBe(heldBefore);
    expect(await cardInList()).toMatchObject({ likes: 2, dislikes: 1 });
    const row = await t.app.ctx.db
      .selectFrom('servers')
      .select(['likes', 'dislikes'])
      .where('id', '=', server.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ likes: 2, dislikes: 1 });
  });

  it('a logged-in caller still gets their own state on a cached page', async () => {
    const server = await createServer(t.app, owner.row.id);
    const viewer = await createUser(t.app);
    const anonymous = await get(`/api/servers/${server.id}`, { 'user-agent': 'hot-reads-test' });
    expect(anonymous.json().viewer).toBeNull();
    const mine = await get(`/api/servers/${server.id}`, viewer.headers);
    expect(mine.json().viewer).toEqual({ joined: false, vote: null, review: null, isOwner: false });
    const ownPage = await get(`/api/servers/${server.id}`, owner.headers);
    expect(ownPage.json().viewer).toEqual({ joined: false, vote: null, review: null, isOwner: true });
  });
});
