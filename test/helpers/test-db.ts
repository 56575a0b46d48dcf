import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import type { Database } from '../../src/server/db/schema';
import { adminUrl, freshDatabaseName, withDatabase } from './postgres';

/** Which database the suite runs on, for the rare test that must know. */
export const testDatabaseKind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * A migrated database of its own for the caller: loaded from the run's PGlite dump, or created
 * from the run's PostgreSQL template. Closing it drops the PostgreSQL copy.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = freshDatabaseName();
    const admin = await openDatabase({ kind: 'postgres', url: adminUrl(url), poolSize: 1 });
    await sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(inject('postgresTemplate'))}`.execute(admin.db);
    const handle = await openDatabase({ kind: 'postgres', url: withDatabase(url, name), poolSize: 5 });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db);
        await admin.close();
      },
    };
  }
  const dump = fs.readFileSync(inject('pgliteTemplate'));
  return openDatabase({ kind: 'pglite', loadFrom: new Blob([dump]) });
}

/**
 * A second handle on the database `test` uses, with one connection, so whatever the connection
 * holds (its prepared statements) is the caller's alone. PostgreSQL only.
 */
export async function openOneConnection(test: DatabaseHandle): Promise<DatabaseHandle> {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  const current = (await sql<{ db: string }>`SELECT current_database() AS db`.execute(test.db)).rows[0]!.db;
  url.pathname = `/${current}`;
  return openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
}

/**
 * Index entries and table rows of the app's tables (or of `tables` and their indexes) the current
 * transaction has read so far (what `tup_returned` counts).
 */
export async function rowsReadSoFar(tx: Kysely<Database>, tables?: readonly (keyof Database)[]): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(c.oid)), 0) AS n
    FROM pg_class c LEFT JOIN pg_index i ON i.indexrelid = c.oid
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')
      AND (${tables ?? null}::text[] IS NULL OR coalesce(i.indrelid, c.oid) = ANY(${tables ?? null}::regclass[]))`.execute(tx);
  return Number(rows[0]!.n);
}
