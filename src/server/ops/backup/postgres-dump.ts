import { sql } from 'kysely';
import { openDatabase } from '../../db/database';
import { readFacts, type DatabaseFacts } from './facts';
import { BackupError, type Counts, type Manifest } from './manifest';
import { runPipe, runTool } from './run-tool';

/** The PostgreSQL client tools: Debian's wrappers, which pick the newest client version installed. */
export const PG_TOOLS = { dump: '/usr/bin/pg_dump', restore: '/usr/bin/pg_restore', psql: '/usr/bin/psql' };

/** One backup of a database at a time, across every instance and the command line. */
const BACKUP_LOCK = 0x7270_626b; // "rpbk"

/** The tools get the password in the environment, so it never shows in the process list. */
function connection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** `pg_dump (PostgreSQL) 15.20 (Debian …)` → 15. */
export function majorOf(version: string): number {
  const m = /(\d+)(?:\.(\d+))?/.exec(version.replace(/^[^\d]*/, ''));
  if (!m) throw new BackupError(`Cannot read a PostgreSQL version from "${version}"`);
  return Number(m[1]);
}

async function toolVersion(tool: string): Promise<string> {
  return (await runTool(tool, ['--version'])).trim();
}

/**
 * Dumps the database at `url` to `outFile` in pg_dump's custom format, consistently while the app
 * writes: one REPEATABLE READ transaction exports its snapshot, pg_dump dumps exactly that
 * snapshot, and the counts, migration and image keys of the manifest are read in it too.
 */
export async function dumpPostgres(url: string, outFile: string): Promise<DatabaseFacts & { dumpTool: string }> {
  const dumpTool = await toolVersion(PG_TOOLS.dump);
  const target = connection(url);
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 1, statementTimeoutMs: 0 });
  try {
    return await handle.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const lock = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${BACKUP_LOCK}) AS locked`.execute(trx);
        if (!lock.rows[0]?.locked) throw new BackupError('Another backup of this database is running; try again once it has finished.');
        const facts = await readFacts(trx);
        if (majorOf(dumpTool) < majorOf(facts.serverVersion))
          throw new BackupError(
            `The database runs PostgreSQL ${facts.serverVersion} but ${PG_TOOLS.dump} is ${dumpTool}: ` +
              `install the PostgreSQL ${majorOf(facts.serverVersion)} client tools (postgresql-client-${majorOf(facts.serverVersion)}).`,
          );
        const snapshot = (await sql<{ id: string }>`SELECT pg_export_snapshot() AS id`.execute(trx)).rows[0]!.id;
        await runTool(PG_TOOLS.dump, ['--format=custom', `--snapshot=${snapshot}`, `--file=${outFile}`, `--dbname=${target.url}`], {
          env: target.env,
        });
        return { ...facts, dumpTool };
      });
  } finally {
    await handle.close();
  }
}

/** What stands in the way of restoring into the database at `url`. */
export async function postgresTarget(url: string): Promise<{ relations: number; otherConnections: number; serverVersion: string }> {
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    const row = (
      await sql<{ relations: number; otherConnections: number; serverVersion: string }>`
        SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
                   AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                   AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%')::int AS relations,
               (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid())::int AS other_connections,
               current_setting('server_version') AS server_version`.execute(handle.db)
    ).rows[0]!;
    return { relations: Number(row.relations), otherConnections: Number(row.otherConnections), serverVersion: row.serverVersion };
  } catch (error) {
    throw new BackupError(`Cannot reach the target database: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
}

/** The schemas the app makes; `--force` drops them (and all in them) before restoring. */
const DROP_APP_SCHEMAS = 'DROP SCHEMA IF EXISTS pgboss CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;';

/**
 * A check run last inside the restore's transaction: a count that differs from the manifest's
 * rolls the whole restore back. Names are qualified: the restored script empties search_path.
 */
export function verifyCountsSql(counts: Counts): string {
  const check = (what: string, expected: number) =>
    `IF n <> ${expected} THEN RAISE EXCEPTION '${what}: the archive has ${expected}, the restore %', n; END IF;`;
  return `DO $verify$ DECLARE n bigint; BEGIN
    SELECT count(*) INTO n FROM public.users; ${check('users', counts.users)}
    SELECT count(*) INTO n FROM public.servers; ${check('servers', counts.servers)}
    SELECT count(*) INTO n FROM public.votes; ${check('votes', counts.votes)}
    SELECT count(*) INTO n FROM public.joins; ${check('joins', counts.joins)}
    SELECT count(*) INTO n FROM public.media; ${check('media', counts.media)}
    IF to_regclass('pgboss.job') IS NULL THEN n := 0;
    ELSE SELECT count(*) INTO n FROM pgboss.job WHERE state IN ('created', 'retry'); END IF;
    ${check('pendingJobs', counts.pendingJobs)}
  END $verify$;`;
}

/**
 * Restores a custom-format dump into the database at `url` in ONE transaction (pg_restore's SQL
 * through psql --single-transaction): with `force` the app's schemas are dropped first in that
 * same transaction, and the counts are checked last, so any failure leaves the target as it was.
 * Objects are owned by the restoring user (`--no-owner`), whoever owned them at the source.
 */
export async function restorePostgres(url: string, dumpFile: string, manifest: Manifest, force: boolean): Promise<void> {
  const restoreTool = await toolVersion(PG_TOOLS.restore);
  const madeWith = majorOf(manifest.database.dumpTool);
  if (majorOf(restoreTool) < madeWith)
    throw new BackupError(
      `The archive was dumped by pg_dump ${madeWith}, which ${PG_TOOLS.restore} (${restoreTool}) cannot read: ` +
        `install the PostgreSQL ${madeWith} client tools (postgresql-client-${madeWith}).`,
    );
  const target = connection(url);
  const psql = ['-X', '-q', '--single-transaction', '-v', 'ON_ERROR_STOP=1', `--dbname=${target.url}`];
  if (force) psql.push('-c', DROP_APP_SCHEMAS);
  psql.push('-f', '-', '-c', verifyCountsSql(manifest.counts), '-c', 'ANALYZE');
  await runPipe([PG_TOOLS.restore, ['--no-owner', '--no-privileges', '--file=-', dumpFile]], [PG_TOOLS.psql, psql], target.env);
}
