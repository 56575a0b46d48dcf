import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, preparedMarker, type DatabaseHandle } from '../src/server/db/database';
import { serversRepository } from '../src/server/modules/servers/servers.repository';
import { openTestDatabase, testDatabaseKind } from './helpers/test-db';

/**
 * The hottest uncached query (a list page's cards) runs as a named prepared statement on
 * PostgreSQL, planned once per connection; the same text works unchanged on the embedded database.
 */
describe('prepared hot queries', () => {
  let test: DatabaseHandle;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(() => test?.close());

  it('answers the cards query the same, on either database', async () => {
    const owner = await test.db
      .insertInto('users')
      .values({ username: `prep${Date.now()}`, passwordHash: 'x', role: 'server_owner' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids = [];
    for (const name of ['Prepared One', 'Prepared Two']) {
      ids.push((await test.db.insertInto('servers').values({ ownerId: owner.id, name }).returning('id').executeTakeFirstOrThrow()).id);
    }
    const repo = serversRepository(test.db);
    for (let i = 0; i < 7; i++) {
      const cards = await repo.cardsByIds(ids, new Date());
      expect(cards.map((c) => c.name).sort()).toEqual(['Prepared One', 'Prepared Two']);
    }
  });

  it.runIf(testDatabaseKind === 'postgres')('is prepared once on its connection, and other queries are not', async () => {
    // One connection, so the statements seen are this test's.
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const current = (await sql<{ db: string }>`SELECT current_database() AS db`.execute(test.db)).rows[0]!.db;
    url.pathname = `/${current}`;
    const one = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
    try {
      const repo = serversRepository(one.db);
      await repo.cardsByIds([1, 2], new Date());
      await repo.cardsByIds([3], new Date());
      const prepared = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(one.db);
      expect(prepared.rows.map((r) => r.name)).toEqual(['cards-by-ids']);
      expect(prepared.rows[0]!.statement.startsWith(preparedMarker('cards-by-ids'))).toBe(true);
    } finally {
      await one.close();
    }
  });
});
