import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serverDetailSchema, SORTS } from '../src/shared/schemas/server';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, uniqueName } from './helpers/factories';
import { file, makeImage, multipart } from './helpers/multipart';
import { currentOrNextWeekend } from '../src/server/lib/weekend';
import { LIMITS } from '../src/shared/limits';

let t: TestApp;
let clock: Date | undefined;
beforeAll(async () => {
  t = await createTestApp({ build: { now: () => clock ?? new Date() } });
});
afterAll(() => t.close());

async function setFilters(serverId: number, names: string[]) {
  const rows = await t.app.ctx.db.selectFrom('filters').select('id').where('name', 'in', names).execute();
  await t.app.ctx.db
    .insertInto('serverFilters')
    .values(rows.map((f) => ({ serverId, filterId: f.id })))
    .execute();
}

describe('GET /api/servers', () => {
  const tag = uniqueName('Zq');
  let ids: Record<string, number> = {};
  beforeAll(async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const db = t.app.ctx.db;
    const make = async (
      name: string,
      values: {
        likes?: number;
        totalBoosts?: number;
        totalJoins?: number;
        currentPlayers?: number;
        online?: boolean | null;
        lastBoostedAt?: Date | null;
        createdAt?: Date;
        hidden?: boolean;
      },
    ) => {
      const s = await createServer(t.app, owner.row.id, { name: `${tag} ${name}` });
      await db.updateTable('servers').set(values).where('id', '=', s.id).execute();
      return s.id;
    };
    ids = {
      alpha: await make('Alpha Roleplay', {
        likes: 50,
        totalBoosts: 0,
        totalJoins: 5,
        currentPlayers: 10,
        online: true,
        lastBoostedAt: null,
        createdAt: new Date(Date.now() - 5 * 86400_000),
      }),
      bravo: await make('Bravo Roleplay', {
        likes: 10,
        totalBoosts: 100,
        totalJoins: 1,
        currentPlayers: 80,
        online: true,
        lastBoostedAt: new Date(Date.now() - 3600_000),
        createdAt: new Date(Date.now() - 3 * 86400_000),
      }),
      charlie: await make('Charlie Life', {
        likes: 30,
        totalBoosts: 5,
        totalJoins: 60,
        currentPlayers: 0,
        online: false,
        lastBoostedAt: new Date(Date.now() - 60_000),
        createdAt: new Date(Date.now() - 86400_000),
      }),
      hidden: await make('Hidden Roleplay', { likes: 999, hidden: true }),
    };
    await setFilters(ids.alpha!, ['FiveM (GTA V)', 'Serious RP']);
    await setFilters(ids.bravo!, ['FiveM (GTA V)']);
    await setFilters(ids.charlie!, ["Garry's Mod", 'Serious RP']);
  });

  const list = (query: string) => t.app.inject({ url: `/api/servers?q=${encodeURIComponent(tag)}&${query}` });
  const names = (res: Awaited<ReturnType<typeof list>>) =>
    (res.json() as Array<{ name: string }>).map((s) => s.name.replace(`${tag} `, ''));

  it('sorts by likes by default, and by popular, hot, new, players and joins', async () => {
    expect(names(await list(''))).toEqual(['Alpha Roleplay', 'Charlie Life', 'Bravo Roleplay']);
    expect(names(await list('sort=popular'))).toEqual(['Bravo Roleplay', 'Charlie Life', 'Alpha Roleplay']);
    expect(names(await list('sort=hot'))).toEqual(['Charlie Life', 'Bravo Roleplay']);
    expect(names(await list('sort=new'))).toEqual(['Charlie Life', 'Bravo Roleplay', 'Alpha Roleplay']);
    expect(names(await list('sort=players'))).toEqual(['Bravo Roleplay', 'Alpha Roleplay', 'Charlie Life']);
    expect(names(await list('sort=joins'))).toEqual(['Charlie Life', 'Alpha Roleplay', 'Bravo Roleplay']);
  });

  it('searches names by partial words, case-insensitively, with LIKE characters taken literally', async () => {
    expect(names(await t.app.inject({ url: `/api/servers?q=${encodeURIComponent(`${tag} roLEpl`)}` }))).toEqual([
      'Alpha Roleplay',
      'Bravo Roleplay',
    ]);
    expect(names(await t.app.inject({ url: `/api/servers?q=${encodeURIComponent(`${tag} rav role`)}` }))).toEqual(['Bravo Roleplay']);
    expect((await t.app.inject({ url: `/api/servers?q=${encodeURIComponent(`${tag} %`)}` })).json()).toEqual([]);
    expect((await t.app.inject({ url: `/api/servers?q=${encodeURIComponent("'; DROP TABLE servers; --")}` })).statusCode).toBe(200);
  });

  it('keeps servers that have every chosen filter', async () => {
    expect(names(await list('filters=FiveM%20(GTA%20V)'))).toEqual(['Alpha Roleplay', 'Bravo Roleplay']);
    expect(names(await list('filters=FiveM%20(GTA%20V),serious%20rp'))).toEqual(['Alpha Roleplay']);
    const unknown = await list('filters=Nope');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'Unknown filter: Nope' });
  });

  it('pages with limit and offset and tells the total in X-Total-Count; hidden servers never show', async () => {
    const first = await list('limit=2');
    expect(first.headers['x-total-count']).toBe('3');
    expect(names(first)).toEqual(['Alpha Roleplay', 'Charlie Life']);
    const second = await list('limit=2&offset=2');
    expect(names(second)).toEqual(['Bravo Roleplay']);
    expect(second.headers['x-total-count']).toBe('3');
    const past = await list('limit=2&offset=10');
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('3');
  });

  it('refuses bad paging, sorts and searches with 400, saying what is allowed', async () => {
    const limit = `limit must be a whole number from 1 to ${LIMITS.listMax}`;
    const offset = 'offset must be a whole number from 0 to 100000';
    const cases: Array<[string, string]> = [
      ['limit=0', limit],
      ['limit=101', limit],
      ['limit=999999', limit],
      ['limit=abc', limit],
      ['limit=2.5', limit],
      ['offset=-1', offset],
      ['offset=1e9', offset],
      ['offset=x', offset],
      ['sort=random', `sort must be one of ${SORTS.join(', ')}`],
      ['sort=likes&sort=new', 'sort may be given only once'],
      ['limit=5&limit=6', 'limit may be given only once'],
      [`q=${'a'.repeat(LIMITS.serverName + 1)}`, `q must be at most ${LIMITS.serverName} characters`],
      [`filters=${'a'.repeat(2001)}`, 'filters must be at most 2000 characters'],
      ['q=a&q=b', 'q may be given only once'],
    ];
    for (const [query, error] of cases) {
      // A search of its own: `list` names one already.
      const res = query.startsWith('q=') ? await t.app.inject({ url: `/api/servers?${query}` }) : await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ error });
    }
    expect((await t.app.inject({ url: '/api/servers' })).headers['x-total-count']).toBeDefined();
  });

  it('counts searches with filters by players and visitors for popular filters, once per viewer, filter and day', async () => {
    const player = await createUser(t.app);
    const owner = await createUser(t.app, { role: 'server_owner' });
    // Searches of earlier tests may still be queued.
    await t.app.ctx.discovery.flushCounts();
    const before = await t.app.ctx.db
      .selectFrom('searchLog')
      .select((eb) => eb.fn.coalesce(eb.fn.max('id'), eb.lit(0)).as('id'))
      .executeTakeFirstOrThrow();
    const search = (query: string, remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ url: `/api/servers?${query}`, headers, remoteAddress });
    await search('filters=Whitelisted,English', '10.1.0.5', player.headers);
    await search('filters=English', '10.1.9.9', player.headers);
    await search('filters=Whitelisted', '10.2.0.7', { 'user-agent': 'Browser A' });
    await search('filters=Whitelisted', '10.2.0.8', { 'user-agent': 'Browser B' });
    await search('filters=Whitelisted&offset=24', '10.3.0.1');
    await search('filters=Whitelisted', '10.3.0.2', owner.headers);
    await search('filters=Whitelisted', '10.3.0.3', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
    await search('q=abc', '10.3.0.4');
    await t.app.ctx.discovery.flushCounts();
    const added = await t.app.ctx.db.selectFrom('searchLog').select(['filter', 'userId', 'viewer']).where('id', '>', before.id).execute();
    expect(added.map((r) => r.filter).sort()).toEqual(['English', 'Whitelisted', 'Whitelisted']);
    expect(added.filter((r) => r.userId === player.row.id)).toHaveLength(2);
    expect(added.find((r) => r.userId === null)?.viewer).toBe('n:10.2.0.0/24');

    clock = new Date(Date.now() + 86400_000);
    await search('filters=Whitelisted,English', '10.1.0.5', player.headers);
    clock = undefined;
    await t.app.ctx.discovery.flushCounts();
    expect(await t.app.ctx.db.selectFrom('searchLog').select('id').where('userId', '=', player.row.id).execute()).toHaveLength(4);
  });
});

describe('just joined, filter categories and server of the weekend', () => {
  it('lists servers created in the last 24 hours, newest first', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const old = await createServer(t.app, owner.row.id, { name: uniqueName('Old') });
    await t.app.ctx.db
      .updateTable('servers')
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where('id', '=', old.id)
      .execute();
    const a = await createServer(t.app, owner.row.id, { name: uniqueName('NewA') });
    const b = await createServer(t.app, owner.row.id, { name: uniqueName('NewB') });
    await t.app.ctx.db
      .updateTable('servers')
      .set({ createdAt: new Date(Date.now() - 3600_000) })
      .where('id', '=', a.id)
      .execute();
    const ids = ((await t.app.inject({ url: '/api/servers/just-joined' })).json() as Array<{ id: string }>).map((s) => s.id);
    expect(ids.indexOf(String(b.id))).toBeLessThan(ids.indexOf(String(a.id)));
    expect(ids).not.toContain(String(old.id));
  });

  it('answers the filter categories from memory', async () => {
    const res = await t.app.inject({ url: '/api/filters/categories' });
    const categories = res.json() as Array<{ category: string; filters: string[] }>;
    expect(categories.map((c) => c.category)).toEqual([
      'Game',
      'Style',
      'Economy',
      'Whitelist',
      'Language',
      'Region',
      'Platform',
      'Features',
    ]);
    expect(categories[0]!.filters).toContain('FiveM (GTA V)');
  });

  it("shows this weekend's booking, and between weekends the coming one's; null when none", async () => {
    expect((await t.app.inject({ url: '/api/server-of-the-weekend' })).json()).toBeNull();
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id, { name: 'Weekend Star' });
    await t.app.ctx.db.insertInto('weekendBookings').values({ serverId: server.id, weekendStart: '2026-11-27' }).execute();
    for (const [at, featured] of [
      ['2026-11-24T12:00:00Z', true], // Tuesday before: the coming weekend
      ['2026-11-27T00:00:00Z', true], // Friday 00:00
      ['2026-11-29T23:59:59Z', true], // Sunday 24:00
      ['2026-11-30T00:00:00Z', false], // Monday after
    ] as const) {
      clock = new Date(at);
      const res = (await t.app.inject({ url: '/api/server-of-the-weekend' })).json();
      expect(res?.name ?? null, at).toBe(featured ? 'Weekend Star' : null);
    }
    clock = undefined;
  });

  it('computes the weekend in UTC', () => {
    expect(currentOrNextWeekend(new Date('2026-11-22T10:00:00Z'))).toBe('2026-11-20'); // Sunday
    expect(currentOrNextWeekend(new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-27'); // Monday
    expect(currentOrNextWeekend(new Date('2026-11-28T05:00:00Z'))).toBe('2026-11-27'); // Saturday
  });
});

describe('GET /api/servers/{id}', () => {
  it('answers the server with its newest reviews, their total and the caller state; more through /reviews', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const voters = await Promise.all(Array.from({ length: 12 }, () => createUser(t.app)));
    for (const [i, v] of voters.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/servers/${server.id}/${i % 3 ? 'like' : 'dislike'}`,
        headers: v.headers,
        payload: { review: `Review <b>${i}</b>` },
      });
      expect(res.statusCode).toBe(200);
    }
    const res = await t.app.inject({ url: `/api/servers/${server.id}`, headers: voters[0]!.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.reviews).toHaveLength(10);
    expect(body.reviewsTotal).toBe(12);
    expect(body.reviews[0]).toMatchObject({ type: 'like', review: 'Review <b>11</b>', username: voters[11]!.row.username });
    expect(body.viewer).toEqual({ joined: false, vote: 'dislike', review: 'Review <b>0</b>', isOwner: false });
    expect(body).toMatchObject({ likes: 8, dislikes: 4 });
    // Exactly what the page's schema writes, field for field and in its order, though only the caller's state went through it.
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe(JSON.stringify(z.encode(serverDetailSchema, body)));
    const own = await t.app.inject({ url: `/api/servers/${server.id}`, headers: owner.headers });
    expect(own.json().viewer).toEqual({ joined: false, vote: null, review: null, isOwner: true });
    expect(own.body).toBe(JSON.stringify(z.encode(serverDetailSchema, own.json())));
    const more = await t.app.inject({ url: `/api/servers/${server.id}/reviews?offset=10&limit=10` });
    expect(more.json().map((r: { review: string }) => r.review)).toEqual(['Review <b>1</b>', 'Review <b>0</b>']);
    expect(more.headers['x-total-count']).toBe('12');
    expect((await t.app.inject({ url: `/api/servers/${server.id}` })).json().viewer).toBeNull();
  });

  it('counts a view once per viewer (the user, else the client network) per day, not the owner nor robots', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const player = await createUser(t.app);
    const view = (headers: Record<string, string> = {}, ip = '10.0.0.1') =>
      t.app.inject({ url: `/api/servers/${server.id}`, headers, remoteAddress: ip });
    const stored = async () => {
      await t.app.ctx.discovery.flushCounts();
      const row = await t.app.ctx.db.selectFrom('servers').select('views').where('id', '=', server.id).executeTakeFirstOrThrow();
      const rows = await t.app.ctx.db.selectFrom('serverViews').select('viewer').where('serverId', '=', server.id).execute();
      expect(row.views).toBe(rows.length);
      return row.views;
    };
    // A counted view shows itself at once; the stored counter follows within a second.
    expect((await view(player.headers)).json().views).toBe(1);
    await view(player.headers, '10.0.0.2');
    await view({ 'user-agent': 'A' });
    await view({ 'user-agent': 'B' }, '10.0.0.200');
    await view({ 'user-agent': 'A' }, '10.0.1.9');
    await view({ 'user-agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)' }, '10.0.2.1');
    await view(owner.headers, '10.0.4.1');
    expect(await stored()).toBe(3);
    expect((await view({ 'user-agent': 'C' }, '10.0.0.3')).json().views).toBe(3);
    clock = new Date(Date.now() + 86400_000);
    expect((await view(player.headers)).json().views).toBe(4);
    clock = undefined;
    expect(await stored()).toBe(4);
  });

  it('answers 404 for unknown, malformed and hidden servers', async () => {
    for (const id of ['999999999', 'abc', '0', '1;DROP'])
      expect((await t.app.inject({ url: `/api/servers/${encodeURIComponent(id)}` })).statusCode).toBe(404);
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    await t.app.ctx.db.updateTable('servers').set({ hidden: true }).where('id', '=', server.id).execute();
    const res = await t.app.inject({ url: `/api/servers/${server.id}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Server not found' });
    expect((await t.app.inject({ url: `/api/servers/${server.id}`, headers: owner.headers })).statusCode).toBe(200);
  });
});

describe('pages for link previews and crawlers', () => {
  it('renders Open Graph and Twitter tags of a server into its HTML, escaped; sitemap and robots', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dist = fs.mkdtempSync(path.join(t.dataDir, 'dist-'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><meta charset="UTF-8" /><meta name="description" content="x" /><title>RP Servers</title></head><body><div id="root"></div></body></html>',
    );
    const app = await createTestApp({ build: { webDist: dist } });
    try {
      const owner = await createUser(app.app, { role: 'server_owner' });
      const server = await createServer(app.app, owner.row.id, { name: 'Neon <City> "RP"' });
      await app.app.ctx.db
        .updateTable('servers')
        .set({ statusMessage: 'Open & whitelisted', banner: '/uploads/banners/abc.webp' })
        .where('id', '=', server.id)
        .execute();
      const html = (await app.app.inject({ url: `/servers/${server.id}` })).body;
      expect(html).toContain('<meta property="og:title" content="Neon &lt;City&gt; &quot;RP&quot; · RP Servers" />');
      expect(html).toContain('<meta property="og:description" content="Open &amp; whitelisted" />');
      // The live banner (players and rank today), not the uploaded picture.
      expect(html).toContain(`<meta property="og:image" content="http://localhost:3000/servers/${server.id}/banner.png?size=1200x630" />`);
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
      // The uploaded banner is the page's largest picture: the HTML asks for it before the app runs.
      expect(html).toContain('<link rel="preload" as="image" href="/uploads/banners/abc.webp" fetchpriority="high" />');
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html).not.toContain('content="x"');
      const home = (await app.app.inject({ url: '/home' })).body;
      expect(home).toContain('<meta property="og:title" content="RP Servers · Find your next roleplay home" />');
      expect(home).not.toContain('rel="preload" as="image"');

      const sitemap = await app.app.inject({ url: '/sitemap.xml' });
      expect(sitemap.headers['content-type']).toContain('application/xml');
      expect(sitemap.body).toContain(`<loc>http://localhost:3000/servers/${server.id}</loc>`);
      const robots = await app.app.inject({ url: '/robots.txt' });
      expect(robots.body).toContain('Sitemap: http://localhost:3000/sitemap.xml');

      // A hidden server's page previews as the site, not as the server.
      await app.app.ctx.db.updateTable('servers').set({ hidden: true }).where('id', '=', server.id).execute();
      app.app.ctx.discovery.invalidate();
      const hidden = (await app.app.inject({ url: `/servers/${server.id}` })).body;
      expect(hidden).toContain('<meta property="og:title" content="RP Servers · Find your next roleplay home" />');
      expect(hidden).not.toContain('Neon');
      expect(hidden).not.toContain('rel="preload" as="image"');
    } finally {
      await app.close();
    }
  });
});

describe('listing pages from memory', () => {
  it('serves a repeated page from memory and drops it after a change through the API', async () => {
    const cached = await createTestApp({ build: { listCacheTtlMs: 60_000 } });
    try {
      const owner = await createUser(cached.app, { role: 'server_owner', plan: 'Premium' });
      const player = await createUser(cached.app);
      const tag = uniqueName('Cache');
      const made = await cached.app.inject({
        method: 'POST',
        url: '/api/servers',
        headers: owner.headers,
        payload: { name: `${tag} one` },
      });
      expect(made.statusCode).toBe(201);
      const first = { id: Number(made.json().id) };
      const url = `/api/servers?q=${tag}`;
      expect((await cached.app.inject({ url })).json()).toHaveLength(1);
      // Written behind the app's back: not seen until the cache is dropped.
      await cached.app.ctx.db.updateTable('servers').set({ likes: 7 }).where('id', '=', first.id).execute();
      expect((await cached.app.inject({ url })).json()[0].likes).toBe(0);
      const liked = await cached.app.inject({ method: 'POST', url: `/api/servers/${first.id}/like`, headers: player.headers });
      expect(liked.statusCode).toBe(200);
      expect((await cached.app.inject({ url })).json()[0].likes).toBe(8);
      const created = await cached.app.inject({
        method: 'POST',
        url: '/api/servers',
        headers: owner.headers,
        payload: { name: `${tag} two` },
      });
      expect(created.statusCode).toBe(201);
      const after = await cached.app.inject({ url });
      expect(after.json()).toHaveLength(2);
      expect(after.headers['x-total-count']).toBe('2');
      expect(after.headers['content-type']).toContain('application/json');
    } finally {
      await cached.close();
    }
  });

  it('drops a held page and list at once when a gallery image is removed: neither names a file that is gone', async () => {
    const cached = await createTestApp({ build: { listCacheTtlMs: 60_000 } });
    try {
      const owner = await createUser(cached.app, { role: 'server_owner', plan: 'Pro' });
      const tag = uniqueName('Gallery');
      const id = (await cached.app.inject({ method: 'POST', url: '/api/servers', headers: owner.headers, payload: { name: tag } })).json()
        .id;
      const body = multipart([file('galleryImages[]', await makeImage('png')), file('galleryImages[]', await makeImage('png'))]);
      const uploaded = await cached.app.inject({
        method: 'POST',
        url: `/api/servers/${id}/upload-gallery`,
        headers: { ...owner.headers, ...body.headers },
        payload: body.payload,
      });
      const images = uploaded.json().galleryImages as string[];
      expect(images).toHaveLength(2);
      const shown = async () => ({
        page: (await cached.app.inject({ url: `/api/servers/${id}` })).json().galleryImages,
        list: (await cached.app.inject({ url: `/api/servers?q=${tag}` })).json()[0].galleryImages,
      });
      // Read twice: held in memory from here on.
      await shown();
      expect(await shown()).toEqual({ page: images, list: images });
      const removed = await cached.app.inject({
        method: 'DELETE',
        url: `/api/servers/${id}/gallery?url=${encodeURIComponent(images[0]!)}`,
        headers: owner.headers,
      });
      expect(removed.statusCode).toBe(200);
      expect(await shown()).toEqual({ page: [images[1]], list: [images[1]] });
      expect((await cached.app.inject({ url: images[0]! })).statusCode).toBe(404);
    } finally {
      await cached.close();
    }
  });
});
