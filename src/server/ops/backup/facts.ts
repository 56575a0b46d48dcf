import { sql, type Kysely } from 'kysely';
import type { Counts } from './manifest';

/** What a backup reads from the database in the snapshot it dumps. */
export interface DatabaseFacts {
  counts: Counts;
  migration: string | null;
  serverVersion: string;
  /** Storage keys of every stored image a row points to (each has a `media` row). */
  storageKeys: string[];
}

// A Kysely, a transaction or a held connection: the facts are read where the caller's snapshot is.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read on any schema (also before the app's types apply)
type Reader = Kysely<any>;

/**
 * Counts, newest migration and server version in one round; the job queue's table is counted only
 * where it exists (a database migrated by `npm run db:migrate` has no queue until the app starts).
 */
export async function readFacts(db: Reader): Promise<DatabaseFacts> {
  const queue = await sql<{ present: boolean }>`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`.execute(db);
  const pending = queue.rows[0]?.present ? sql`(SELECT count(*) FROM pgboss.job WHERE state IN ('created', 'retry'))` : sql`0`;
  const row = (
    await sql<Counts & { migration: string | null; serverVersion: string }>`
      SELECT (SELECT count(*) FROM users) AS users,
             (SELECT count(*) FROM servers) AS servers,
             (SELECT count(*) FROM votes) AS votes,
             (SELECT count(*) FROM joins) AS joins,
             (SELECT count(*) FROM media) AS media,
             ${pending}::int AS pending_jobs,
             (SELECT max(name) FROM kysely_migration) AS migration,
             current_setting('server_version') AS server_version`.execute(db)
  ).rows[0]!;
  const keys = await sql<{ storageKey: string }>`SELECT storage_key FROM media ORDER BY storage_key`.execute(db);
  return {
    // count(*) is a bigint: a number on both drivers (database.ts sets the parsers), made sure of here.
    counts: {
      users: Number(row.users),
      servers: Number(row.servers),
      votes: Number(row.votes),
      joins: Number(row.joins),
      media: Number(row.media),
      pendingJobs: Number(row.pendingJobs),
    },
    migration: row.migration,
    serverVersion: row.serverVersion,
    storageKeys: keys.rows.map((r) => r.storageKey),
  };
}

/** Which counts differ between what the archive says and what was restored, one line each. */
export function countDifferences(expected: Counts, actual: Counts): string[] {
  return (Object.keys(expected) as Array<keyof Counts>)
    .filter((k) => expected[k] !== actual[k])
    .map((k) => `${k}: the archive has ${expected[k]}, the restored database ${actual[k]}`);
}
