import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serversRepository, type ListOptions } from '../src/server/modules/servers/servers.repository';
import { SORTS } from '../src/shared/schemas/server';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser } from './helpers/factories';
import { testDatabaseKind } from './helpers/test-db';

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const WORDS = ['Night', 'City', 'RP', 'Los', 'Santos', 'Life', 'Zone', 'la', 'Sharp', 'rpg', 'Öl', '5'];

describe('the search index against the table', () => {
  let t: TestApp;
  let ownerId: number;
  let filterIds: Record<string, number>;
  const rand = random(20261124);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;

  beforeAll(async () => {
    t = await createTestApp();
    ownerId = (await createUser(t.app, { role: 'server_owner' })).row.id;
    const filters = await t.app.ctx.db.selectFrom('filters').select(['id', 'name']).execute();
    filterIds = Object.fromEntries(filters.map((f) => [f.name, f.id]));
    const rows = Array.from({ length: 400 }, () => ({
      ownerId,
      name: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(WORDS)).join(pick([' ', '-'])),
      likes: Math.floor(rand() * 8),
      totalJoins: Math.floor(rand() * 4),
      totalBoosts: Math.floor(rand() * 3),
      currentPlayers: Math.floor(rand() * 5),
      hidden: rand() < 0.1,
      lastBoostedAt: rand() < 0.3 ? new Date(Date.UTC(2026, 10, 1 + Math.floor(rand() * 20))) : null,
      createdAt: new Date(Date.UTC(2026, 9, 1 + Math.floor(rand() * 30))),
    }));
    const inserted = await t.app.ctx.db.insertInto('servers').values(rows).returning('id').execute();
    const common = [filterIds['FiveM (GTA V)']!, filterIds['Serious RP']!, filterIds['Arabic']!];
    const links = inserted.flatMap((s) => common.filter(() => rand() < 0.4).map((filterId) => ({ serverId: s.id, filterId })));
    await t.app.ctx.db.insertInto('serverFilters').values(links).execute();
  });
  afterAll(() => t?.close());

  const viaApi = async (options: ListOptions) => {
    const params = new URLSearchParams({ sort: options.sort, limit: String(options.limit), offset: String(options.offset) });
    if (options.q) params.set('q', options.q);
    const names = Object.entries(filterIds)
      .filter(([, id]) => options.filterIds?.includes(id))
      .map(([name]) => name);
    if (names.length > 0) params.set('filters', names.join(','));
    const res = await t.app.inject({ url: `/api/servers?${params}` });
    expect(res.statusCode).toBe(200);
    return { ids: res.json().map((s: { id: string }) => Number(s.id)), total: Number(res.headers['x-total-count']) };
  };
  const viaSql = async (options: ListOptions) => {
    const listed = await serversRepository(t.app.ctx.db).list(options, new Date());
    const count = listed.count ?? (await serversRepository(t.app.ctx.db).count(options));
    return { ids: listed.rows.map((r) => r.id), total: count.total };
  };

  it('finds, counts and orders every search exactly as the SQL query does', async () => {
    await t.app.ctx.discovery.searchIndex();
    const filterChoices = [
      [],
      [filterIds['FiveM (GTA V)']!],
      [filterIds['FiveM (GTA V)']!, filterIds['Serious RP']!],
      [filterIds['Arabic']!],
    ];
    // Not '5': PostgreSQL's parser reads "City-5" as "city" and "-5", so SQL misses it; the index finds it (below).
    const queries = ['', 'rp', 'city', 'ity', 'night rp', 'la', 'l', 'sant', 'öl', 'zone-', 'nothing here'];
    for (let i = 0; i < 150; i++) {
      const options: ListOptions = {
        q: pick(queries) || undefined,
        filterIds: pick(filterChoices),
        sort: pick(SORTS),
        limit: 1 + Math.floor(rand() * 30),
        offset: pick([0, 0, 5, 20, 60]),
      };
      expect(await viaApi(options), JSON.stringify(options)).toEqual(await viaSql(options));
    }
  });

  it('finds a short number as a whole word after a hyphen, where the SQL path does not', async () => {
    const { db } = t.app.ctx;
    const server = await db.insertInto('servers').values({ ownerId, name: 'Metro-5 Unusualtag' }).returning('id').executeTakeFirstOrThrow();
    expect((await viaApi({ q: '5 unusualtag', sort: 'likes', limit: 5, offset: 0 })).ids).toEqual([server.id]);
    expect((await viaSql({ q: '5 unusualtag', sort: 'likes', limit: 5, offset: 0 })).ids).toEqual([]);
    await db.deleteFrom('servers').where('id', '=', server.id).execute();
  });

  it('shows a server in a list exactly as its page does: filters, gallery, recent joins and boosts', async () => {
    const { db } = t.app.ctx;
    const player = await createUser(t.app);
    const server = await db
      .insertInto('servers')
      .values({ ownerId, name: 'Cardcheck Harbour', likes: 3, totalJoins: 2, totalBoosts: 5, lastBoostedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('serverFilters')
      .values(['Serious RP', 'FiveM (GTA V)', 'Arabic', 'DarkRP'].map((name) => ({ serverId: server.id, filterId: filterIds[name]! })))
      .execute();
    await db
      .insertInto('media')
      .values(
        [1, 0].map((position) => ({
          serverId: server.id,
          kind: 'gallery' as const,
          storageKey: `g${position}.webp`,
          position,
          width: 1,
          height: 1,
          bytes: 1,
        })),
      )
      .execute();
    const old = new Date(Date.now() - 3 * 24 * 3600_000);
    await db
      .insertInto('joins')
      .values([
        { serverId: server.id, userId: player.row.id },
        { serverId: server.id, userId: ownerId, createdAt: old },
      ])
      .execute();
    await db
      .insertInto('boosts')
      .values([
        { serverId: server.id, userId: player.row.id, source: 'player', amount: 3 },
        { serverId: server.id, userId: player.row.id, source: 'player', amount: 2, createdAt: new Date(Date.now() - 8 * 24 * 3600_000) },
      ])
      .execute();
    const [card] = (await t.app.inject({ url: '/api/servers?q=cardcheck' })).json();
    const page = (await t.app.inject({ url: `/api/servers/${server.id}` })).json();
    expect(card.filters).toEqual(['Arabic', 'DarkRP', 'FiveM (GTA V)', 'Serious RP']);
    expect(card.galleryImages.map((u: string) => u.split('/').pop())).toEqual(['g0.webp', 'g1.webp']);
    expect([card.joins, card.boosts]).toEqual([1, 3]);
    // The page's own parts (reviews, the caller's state, how to connect, what the game says) are not on cards.
    const { reviews: _r, reviewsTotal: _t, viewer: _v, views: _pv, connect: _c, live: _l, ...shown } = page;
    const { views: _cv, ...listed } = card;
    expect(listed).toEqual(shown);
  });

  it('shows each listed server’s rank in Most Popular, overall and in its game, on cards and pages', async () => {
    const res = await t.app.inject({ url: '/api/servers?sort=popular&limit=30' });
    const cards = res.json<
      Array<{
        id: string;
        filters: string[];
        rank: { position: number; of: number; game: { name: string; position: number; of: number } | null };
      }>
    >();
    const total = Number(res.headers['x-total-count']);
    cards.forEach((card, i) => expect(card.rank).toMatchObject({ position: i + 1, of: total }));
    const fivem = cards.filter((card) => card.filters.includes('FiveM (GTA V)'));
    expect(fivem.length).toBeGreaterThan(1);
    fivem.forEach((card, i) => expect(card.rank.game).toEqual({ name: 'FiveM (GTA V)', position: i + 1, of: expect.any(Number) }));
    const page = (await t.app.inject({ url: `/api/servers/${cards[3]!.id}` })).json();
    expect(page.rank).toEqual(cards[3]!.rank);
    // A search keeps the overall rank, not the place in the results.
    const found = (await t.app.inject({ url: `/api/servers?sort=new&filters=${encodeURIComponent('FiveM (GTA V)')}&limit=100` })).json<
      typeof cards
    >();
    expect(found.find((card) => card.id === fivem[0]!.id)!.rank).toEqual(fivem[0]!.rank);
  });

  it('sees writes made behind the app’s back: counters, hiding, renames, filters and deletes', async () => {
    const { db } = t.app.ctx;
    const [a, b] = await db.selectFrom('servers').select('id').where('hidden', '=', false).orderBy('id').limit(2).execute();
    await db.updateTable('servers').set({ likes: 10_000, name: 'Renamed Uniqueword' }).where('id', '=', a!.id).execute();
    expect((await viaApi({ sort: 'likes', limit: 1, offset: 0 })).ids).toEqual([a!.id]);
    expect((await viaApi({ q: 'uniqueword', sort: 'likes', limit: 5, offset: 0 })).ids).toEqual([a!.id]);

    await db.insertInto('serverFilters').values({ serverId: a!.id, filterId: filterIds['Western RP']! }).execute();
    expect((await viaApi({ filterIds: [filterIds['Western RP']!], sort: 'new', limit: 5, offset: 0 })).ids).toEqual([a!.id]);

    await db.updateTable('servers').set({ hidden: true }).where('id', '=', a!.id).execute();
    expect((await viaApi({ q: 'uniqueword', sort: 'likes', limit: 5, offset: 0 })).total).toBe(0);

    await db.deleteFrom('servers').where('id', '=', b!.id).execute();
    const all = await viaApi({ sort: 'new', limit: 100, offset: 0 });
    expect(all.ids).not.toContain(b!.id);
    expect(all).toEqual(await viaSql({ sort: 'new', limit: 100, offset: 0 }));
  });

  it.runIf(testDatabaseKind === 'postgres')('reads a change whose transaction commits after a later one', async () => {
    const { db } = t.app.ctx;
    const [x, y] = await db.selectFrom('servers').select('id').where('hidden', '=', false).orderBy('id', 'desc').limit(2).execute();
    await db.connection().execute(async (conn) => {
      // X's transaction starts first and stays open while Y's commits and the index reads it.
      await sql`BEGIN`.execute(conn);
      try {
        await conn.updateTable('servers').set({ likes: 20_001 }).where('id', '=', x!.id).execute();
        await db.updateTable('servers').set({ likes: 20_000 }).where('id', '=', y!.id).execute();
        expect((await viaApi({ sort: 'likes', limit: 2, offset: 0 })).ids[0]).toBe(y!.id);
      } finally {
        await sql`COMMIT`.execute(conn);
      }
    });
    expect((await viaApi({ sort: 'likes', limit: 2, offset: 0 })).ids).toEqual([x!.id, y!.id]);
  });

  it('follows a vote at once when lists are cached, and reads unannounced writes within the cache time', async () => {
    const cached = await createTestApp({ build: { listCacheTtlMs: 300 } });
    try {
      const owner = await createUser(cached.app, { role: 'server_owner' });
      const player = await createUser(cached.app);
      const [first, second] = await cached.app.ctx.db
        .insertInto('servers')
        .values([
          { ownerId: owner.row.id, name: 'Cached Alpha', likes: 1 },
          { ownerId: owner.row.id, name: 'Cached Beta', likes: 1 },
        ])
        .returning('id')
        .execute();
      // Not announced: seen once the index's freshness time has passed.
      await new Promise((resolve) => setTimeout(resolve, 350));
      const top = async () =>
        (await cached.app.inject({ url: '/api/servers?q=cached&sort=likes' })).json().map((s: { id: string }) => Number(s.id));
      expect(await top()).toEqual([first!.id, second!.id]);
      const liked = await cached.app.inject({ method: 'POST', url: `/api/servers/${second!.id}/like`, headers: player.headers });
      expect(liked.statusCode).toBe(200);
      expect(await top()).toEqual([second!.id, first!.id]);
    } finally {
      await cached.close();
    }
  });
});
