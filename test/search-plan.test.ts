import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser } from './helpers/factories';
import { testDatabaseKind } from './helpers/test-db';

/**
 * The plans behind search on PostgreSQL with 10,000 servers use the indexes: checked
 * with EXPLAIN, not a time. PGlite is single-user and small by design, so this runs on PostgreSQL.
 */
describe.runIf(testDatabaseKind === 'postgres')('search plans on PostgreSQL with 10,000 servers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const owner = await createUser(t.app, { role: 'server_owner' });
    const { db } = t.app.ctx;
    await sql`
      INSERT INTO servers (owner_id, name, likes, total_boosts, total_joins, current_players, last_boosted_at, created_at)
      SELECT ${owner.row.id}, 'Server ' || g || ' ' || md5(g::text), g % 500, g % 50, g % 300, g % 128,
             CASE WHEN g % 10 = 0 THEN now() - (g || ' minutes')::interval END, now() - (g || ' minutes')::interval
      FROM generate_series(1, 10000) g`.execute(db);
    const common = await db.selectFrom('filters').select('id').where('name', '=', 'Serious RP').executeTakeFirstOrThrow();
    const rare = await db.selectFrom('filters').select('id').where('name', '=', 'Arabic').executeTakeFirstOrThrow();
    await sql`INSERT INTO server_filters (server_id, filter_id) SELECT id, ${common.id} FROM servers WHERE id % 7 = 0`.execute(db);
    await sql`INSERT INTO server_filters (server_id, filter_id) SELECT id, ${rare.id} FROM servers WHERE id % 500 = 0`.execute(db);
    // VACUUM moves the rows out of the GIN pending list, as autovacuum would on a live server.
    await sql`VACUUM ANALYZE servers`.execute(db);
    await sql`VACUUM ANALYZE server_filters`.execute(db);
  }, 120_000);
  afterAll(() => t?.close());

  async function plan(query: string): Promise<string> {
    const result = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${sql.raw(query)}`.execute(t.app.ctx.db);
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  it('serves the sorts the home page reads by SQL from their indexes', async () => {
    // Just joined, the live player count and Hot: the other sorts, the names and the filters are
    // answered from the in-memory search index, and the indexes SQL once used for them are gone.
    const cases: Array<[string, string]> = [
      ['created_at DESC, id', 'servers_new_idx'],
      ['(CASE WHEN online IS NULL THEN -1 ELSE current_players END) DESC, id', 'servers_players_idx'],
    ];
    for (const [order, index] of cases) {
      expect(await plan(`SELECT id FROM servers WHERE NOT hidden ORDER BY ${order} LIMIT 24`), order).toContain(index);
    }
    expect(
      await plan(`SELECT id FROM servers WHERE NOT hidden AND last_boosted_at IS NOT NULL ORDER BY last_boosted_at DESC, id LIMIT 24`),
    ).toContain('servers_hot_idx');
  });

  it('serves filters from the filter index', async () => {
    const filter = await t.app.ctx.db.selectFrom('filters').select('id').where('name', '=', 'Arabic').executeTakeFirstOrThrow();
    const text = await plan(
      `SELECT server_id FROM server_filters WHERE filter_id IN (${filter.id}) GROUP BY server_id HAVING count(*) = 1`,
    );
    expect(text, text).toMatch(/server_filters_filter_idx/);
  });

  it('answers the API over 10,000 servers with the right totals', async () => {
    const res = await t.app.inject({ url: '/api/servers?q=server%201234&limit=5' });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    const filtered = await t.app.inject({ url: '/api/servers?filters=Serious%20RP&sort=popular&limit=24' });
    expect(filtered.headers['x-total-count']).toBe(String(Math.floor(10000 / 7)));
  });
});
