import fs from 'node:fs';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
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
