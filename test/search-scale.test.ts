import { CamelCasePlugin, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/server/db/schema';
import type { DatabaseHandle } from '../src/server/db/database';
import { serversRepository, type ListOptions } from '../src/server/modules/servers/servers.repository';
import { serverWritesRepository } from '../src/server/modules/servers/server-writes.repository';
import { playerCountRepository } from '../src/server/modules/player-count';
import { LIST_TOTAL_CAP, TOTAL_CAPPED_HEADER } from '../src/shared/schemas/server';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, uniqueName } from './helpers/factories';
import { openTestDatabase, testDatabaseKind } from './helpers/test-db';

/** A word of random letters: a name tag that no search word of a test matches by chance. */
const letters = () => Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

/** Every server whose `filter_ids` differs from its `server_filters` rows (none when the triggers work). */
async function outOfSync(db: Kysely<Database>) {
  const result = await sql<{ id: number }>`
    SELECT s.id FROM servers s
    WHERE s.filter_ids IS DISTINCT FROM
      coalesce((SELECT array_agg(f.filter_id::integer ORDER BY f.filter_id) FROM server_filters f WHERE f.server_id = s.id), '{}')`.execute(
    db,
  );
  return result.rows.map((r) => r.id);
}

describe('search at scale', () => {
  let t: TestApp;
  let ownerId: number;
  beforeAll(async () => {
    t = await createTestApp();
    ownerId = (await createUser(t.app, { role: 'server_owner' })).row.id;
  });
  afterAll(() => t?.close());

  const filterId = async (name: string) =>
    (await t.app.ctx.db.selectFrom('filters').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

  it('keeps filter_ids equal to server_filters for inserts, deletes, updates and removed filters', async () => {
    const { db } = t.app.ctx;
    const [a, b] = [await createServer(t.app, ownerId), await createServer(t.app, ownerId)];
    const [fivem, serious, arabic] = [await filterId('FiveM (GTA V)'), await filterId('Serious RP'), await filterId('Arabic')];
    const ids = async (id: number) =>
      (await db.selectFrom('servers').select('filterIds').where('id', '=', id).executeTakeFirstOrThrow()).filterIds;

    // Several servers in one statement, written straight to the table.
    await db
      .insertInto('serverFilters')
      .values([
        { serverId: a.id, filterId: serious },
        { serverId: a.id, filterId: fivem },
        { serverId: b.id, filterId: arabic },
      ])
      .execute();
    expect(await ids(a.id)).toEqual([fivem, serious].sort((x, y) => x - y));
    expect(await ids(b.id)).toEqual([arabic]);

    await db.deleteFrom('serverFilters').where('serverId', '=', a.id).where('filterId', '=', serious).execute();
    expect(await ids(a.id)).toEqual([fivem]);

    await db.updateTable('serverFilters').set({ serverId: a.id }).where('serverId', '=', b.id).execute();
    expect(await ids(a.id)).toEqual([fivem, arabic].sort((x, y) => x - y));
    expect(await ids(b.id)).toEqual([]);

    // A filter removed from the catalogue leaves every server through the cascade.
    const category = await db.selectFrom('filterCategories').select('id').limit(1).executeTakeFirstOrThrow();
    const gone = await db
      .insertInto('filters')
      .values({ categoryId: category.id, name: uniqueName('Gone') })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('serverFilters').values({ serverId: b.id, filterId: gone.id }).execute();
    expect(await ids(b.id)).toEqual([gone.id]);
    await db.deleteFrom('filters').where('id', '=', gone.id).execute();
    expect(await ids(b.id)).toEqual([]);

    expect(await outOfSync(db)).toEqual([]);
  });

  it('keeps filter_ids in step when an owner replaces their filters in a transaction', async () => {
    const server = await createServer(t.app, ownerId);
    const writes = serverWritesRepository(t.app.ctx.db);
    const chosen = [await filterId('Arabic'), await filterId('Serious RP'), await filterId('FiveM (GTA V)')];
    await t.app.ctx.db.transaction().execute((tx) => writes.replaceFilters(server.id, chosen, tx));
    const row = await t.app.ctx.db.selectFrom('servers').select('filterIds').where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(row.filterIds).toEqual([...chosen].sort((x, y) => x - y));
    await writes.replaceFilters(server.id, []);
    expect(await outOfSync(t.app.ctx.db)).toEqual([]);
  });

  it(`counts every match from the search index; by SQL (while the index loads) exactly up to ${LIST_TOTAL_CAP}, then says there are more`, async () => {
    // Letters only, so no other word of the search (nor a process id) can match inside it.
    const tag = `capped${letters()}`;
    const extra = 100;
    await sql`
      INSERT INTO servers (owner_id, name, likes)
      SELECT ${ownerId}, ${tag} || ' ' || g, g FROM generate_series(1, ${LIST_TOTAL_CAP + extra}) g`.execute(t.app.ctx.db);

    // The app, once its search index is loaded, counts exactly at any depth.
    const api = (query: string) => t.app.inject({ url: `/api/servers?q=${encodeURIComponent(tag)}&${query}` });
    await t.app.ctx.discovery.searchIndex();
    for (const offset of [0, LIST_TOTAL_CAP]) {
      const page = await api(`limit=24&offset=${offset}`);
      expect(page.json()).toHaveLength(24);
      expect(page.json()[0].name).toBe(`${tag} ${LIST_TOTAL_CAP + extra - offset}`);
      expect(page.headers['x-total-count']).toBe(String(LIST_TOTAL_CAP + extra));
      expect(page.headers[TOTAL_CAPPED_HEADER]).toBeUndefined();
    }

    // The SQL path caps its count.
    const repo = serversRepository(t.app.ctx.db);
    const options = (limit: number, offset: number): ListOptions => ({ q: tag, sort: 'likes', limit, offset });
    const first = await repo.list(options(24, 0), new Date());
    expect(first.rows).toHaveLength(24);
    expect(first.count).toEqual({ total: LIST_TOTAL_CAP, capped: true });

    // Past the first pages nothing is counted: the total says the next page exists.
    const deep = await repo.list(options(24, LIST_TOTAL_CAP), new Date());
    expect(deep.rows).toHaveLength(24);
    expect(deep.count).toEqual({ total: LIST_TOTAL_CAP + 24 + 1, capped: true });

    // The last page knows the end: exact.
    const last = await repo.list(options(24, LIST_TOTAL_CAP + extra - 12), new Date());
    expect(last.rows).toHaveLength(12);
    expect(last.count).toEqual({ total: LIST_TOTAL_CAP + extra, capped: false });

    const past = await repo.list(options(24, LIST_TOTAL_CAP + extra + 10), new Date());
    expect(past.rows).toEqual([]);
    expect(await repo.count(options(24, LIST_TOTAL_CAP + extra + 10))).toEqual({ total: LIST_TOTAL_CAP + extra, capped: false });

    const one = await t.app.inject({ url: `/api/servers?q=${encodeURIComponent(`${tag} 1050`)}` });
    expect(one.json()).toHaveLength(1);
    expect(one.headers['x-total-count']).toBe('1');
    expect(one.headers[TOTAL_CAPPED_HEADER]).toBeUndefined();
  });

  it('matches words shorter than 3 letters as whole words of the name, longer ones anywhere', async () => {
    const tag = `short${letters()}`;
    for (const name of [`${tag} RP City`, `${tag} Sharp`, `${tag} rpg-zone`, `${tag} rp-life`, `${tag} Zone`]) {
      await createServer(t.app, ownerId, { name });
    }
    const names = async (q: string) =>
      ((await t.app.inject({ url: `/api/servers?q=${encodeURIComponent(q)}` })).json() as Array<{ name: string }>)
        .map((s) => s.name.replace(`${tag} `, ''))
        .sort();
    expect(await names(`${tag} rp`)).toEqual(['RP City', 'rp-life']);
    expect(await names(`${tag} arp`)).toEqual(['Sharp']);
    expect(await names(`${tag} zo`)).toEqual([]);
    expect(await names(`${tag} zon`)).toEqual(['Zone', 'rpg-zone']);
    expect(await names(`${tag} %`)).toEqual([]);
  });
});

/**
 * The queries behind every list and search on PostgreSQL with 5,000 servers: read from indexes,
 * no sequential scan of servers, no window count over every match. Checked with EXPLAIN, not a time.
 */
describe.runIf(testDatabaseKind === 'postgres')('list plans on PostgreSQL with 5,000 servers', () => {
  let handle: DatabaseHandle;
  let t: TestApp;
  let logged: Kysely<Database>;
  let pool: pg.Pool;
  let captured: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    handle = await openTestDatabase();
    t = await createTestApp({ build: { database: handle } });
    const owner = await createUser(t.app, { role: 'server_owner' });
    const { db } = t.app.ctx;
    await sql`
      INSERT INTO servers (owner_id, name, likes, total_boosts, total_joins, current_players, online, last_boosted_at, hidden, created_at)
      SELECT ${owner.row.id},
             (ARRAY['Los', 'Grand', 'Liberty', 'Eclipse', 'Pixel'])[1 + g % 5] || ' ' ||
             (ARRAY['City', 'Life', 'Roleplay', 'RP', 'County'])[1 + (g / 5) % 5] || ' ' || md5(g::text),
             g % 500, g % 50, g % 300, g % 128, CASE WHEN g % 7 = 0 THEN NULL ELSE g % 128 > 0 END,
             CASE WHEN g % 10 = 0 THEN now() - (g || ' minutes')::interval END, g % 20 = 0, now() - (g || ' minutes')::interval
      FROM generate_series(1, 5000) g`.execute(db);
    for (const name of ['FiveM (GTA V)', 'Serious RP', 'Arabic', 'Turkish']) {
      ids[name] = (await db.selectFrom('filters').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    }
    await sql`INSERT INTO server_filters (server_id, filter_id) SELECT id, ${ids['FiveM (GTA V)']} FROM servers WHERE id % 3 = 0`.execute(
      db,
    );
    await sql`INSERT INTO server_filters (server_id, filter_id) SELECT id, ${ids['Serious RP']} FROM servers WHERE id % 4 = 0`.execute(db);
    await sql`INSERT INTO server_filters (server_id, filter_id) SELECT id, ${ids.Arabic} FROM servers WHERE id % 97 = 0`.execute(db);
    await sql`INSERT INTO server_filters (server_id, filter_id) SELECT id, ${ids.Turkish} FROM servers WHERE id % 89 = 0`.execute(db);
    // VACUUM moves the rows out of the GIN pending lists and marks the pages all-visible, as
    // autovacuum would on a live server.
    await settle(db, 'servers');
    await settle(db, 'server_filters');
    pool = new pg.Pool({ connectionString: handle.url!, max: 1 });
    logged = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      plugins: [new CamelCasePlugin()],
      log: (event) => {
        if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
      },
    });
  }, 120_000);
  afterAll(async () => {
    await logged?.destroy();
    await t?.close();
    await handle?.close();
  });

  /**
   * VACUUM ANALYZE until every page of the table is all-visible. A read of the test app's own (its
   * search index taking in the new rows) that holds a snapshot while VACUUM runs keeps the new
   * rows from being marked; the planner then prices index-only scans as on a table still being
   * written, and may pick a sequential scan that a settled table would never get.
   */
  async function settle(db: Kysely<Database>, table: string): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
      const { rows } = await sql<{ settled: boolean }>`
        SELECT relallvisible >= relpages AS settled FROM pg_class WHERE oid = ${table}::regclass`.execute(db);
      if (rows[0]?.settled) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${table}: VACUUM never marked every page all-visible`);
  }

  /** The plans of the queries `list` sends for these options. */
  async function plans(options: Partial<ListOptions>): Promise<string> {
    captured = [];
    await serversRepository(logged).list({ sort: 'likes', limit: 24, offset: 0, ...options }, new Date());
    const texts: string[] = [];
    for (const query of captured) {
      const result = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.sql}`, [...query.parameters]);
      texts.push(result.rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
    return texts.join('\n\n');
  }

  it("pages by SQL (while the search index loads) without a window count, the home page's sorts from their indexes", async () => {
    const cases: Array<Partial<ListOptions>> = [
      { sort: 'likes' },
      { sort: 'popular' },
      { sort: 'hot' },
      { sort: 'new' },
      { sort: 'players' },
      { sort: 'joins' },
      { q: 'rp' },
      { q: 'city' },
      { q: 'abc1' },
      { q: 'life', filterIds: [ids['FiveM (GTA V)']!, ids['Serious RP']!] },
      { filterIds: [ids['FiveM (GTA V)']!, ids['Serious RP']!] },
      { filterIds: [ids.Arabic!, ids.Turkish!], sort: 'popular' },
      { offset: 4776 },
    ];
    for (const options of cases) {
      const text = await plans(options);
      const label = `${JSON.stringify(options)}\n${text}`;
      expect(text, label).not.toMatch(/WindowAgg/);
      expect(text, label).not.toMatch(/HashAggregate|GroupAggregate/);
    }
    // The other sorts, names and filters are read by SQL only in the seconds before the index is in
    // (docs/decisions/063-indexes-the-search-index-replaced.md).
    for (const sort of ['hot', 'new', 'players'] as const) {
      const text = await plans({ sort });
      expect(text, `${sort}\n${text}`).not.toMatch(/Seq Scan on servers/);
    }
  });

  it('sums the live player count over servers with players only', async () => {
    captured = [];
    expect(await playerCountRepository(logged).totalPlayers()).toBeGreaterThan(0);
    const result = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${captured[0]!.sql}`, [...captured[0]!.parameters]);
    const text = result.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text, text).not.toMatch(/Seq Scan on servers/);
  });
});
