import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/server/db/database';
import { recordSchemaDigest, schemaChangedSinceLastRun, schemaDigest } from '../bench/seed/schema-digest';
import { openTestDatabase } from './helpers/test-db';

/**
 * The benchmark reuses a seeded database only when its schema is the one its last seed or run
 * left: an experiment's index or storage option would otherwise be measured as the app's.
 */
describe('the benchmark database’s schema digest', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
    await sql`CREATE TABLE bench_seed (facts jsonb NOT NULL, seeded_at timestamptz NOT NULL DEFAULT now())`.execute(handle.db);
    await sql`INSERT INTO bench_seed (facts) VALUES ('{}')`.execute(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const changed = () => schemaChangedSinceLastRun(handle.db);

  it('asks for a new seed when none was recorded, and finds none changed once recorded', async () => {
    expect(await changed()).toMatch(/no schema digest/);
    await recordSchemaDigest(handle.db);
    expect(await changed()).toBe(false);
    expect(await schemaDigest(handle.db)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('ignores the functions the app makes as it runs, and rows written', async () => {
    await sql`CREATE FUNCTION cast_something_0123456789ab() RETURNS integer LANGUAGE sql AS 'SELECT 1'`.execute(handle.db);
    await sql`UPDATE servers SET likes = likes + 1`.execute(handle.db);
    expect(await changed()).toBe(false);
  });

  it.each([
    ['an index', sql`CREATE INDEX experiment_idx ON servers (views)`, sql`DROP INDEX experiment_idx`],
    ['a table option', sql`ALTER TABLE servers SET (fillfactor = 90)`, sql`ALTER TABLE servers RESET (fillfactor)`],
    ['a column', sql`ALTER TABLE servers ADD COLUMN experiment integer`, sql`ALTER TABLE servers DROP COLUMN experiment`],
    [
      'a column’s default',
      sql`ALTER TABLE servers ALTER COLUMN views SET DEFAULT 7`,
      sql`ALTER TABLE servers ALTER COLUMN views SET DEFAULT 0`,
    ],
    [
      'a function’s body',
      sql`CREATE FUNCTION experiment_fn() RETURNS integer LANGUAGE sql AS 'SELECT 1'`,
      sql`DROP FUNCTION experiment_fn()`,
    ],
  ])('sees %s made by hand, and the schema back as it was', async (_what, change, undo) => {
    await change.execute(handle.db);
    expect(await changed()).toMatch(/changed since/);
    await undo.execute(handle.db);
    expect(await changed()).toBe(false);
  });

  it('takes a new digest as the expected one once recorded (the app’s own migrations)', async () => {
    await sql`CREATE INDEX migrated_idx ON servers (views)`.execute(handle.db);
    await recordSchemaDigest(handle.db);
    expect(await changed()).toBe(false);
  });
});
