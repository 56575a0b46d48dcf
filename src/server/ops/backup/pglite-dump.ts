import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { openDatabase } from '../../db/database';
import { readFacts, type DatabaseFacts } from './facts';
import { BackupError } from './manifest';
import { copyTree, readAhead, settle, treeOf, writeTree } from './pglite-copy';
import { runTool } from './run-tool';

/** Up to this size the database is read into memory (a short pause), else copied on disk while held. */
const IN_MEMORY_LIMIT = 1024 ** 3;

/**
 * Dumps the embedded database in `pgDir` (DATA_DIR/db) while it is open in this process, to
 * `outFile` (a .tar.gz of the data directory). Answers the facts read in the same instant and how
 * long the database was held still.
 *
 * PGlite runs in this process over one connection that Kysely hands out one holder at a time (the
 * job queue takes it the same way), and it writes straight through to the files of `pgDir`. Holding
 * that connection, no statement and no transaction can be under way: after a CHECKPOINT the files
 * are a clean, consistent database. To keep that pause short the files are read once while the
 * app runs, and while held only those changed since are read again (as rsync's second pass
 * would). Requests that need the database wait for the pause; hot reads from memory go on.
 */
export async function dumpPglite(
  db: Kysely<Database>,
  pgDir: string,
  outFile: string,
  scratch: string,
): Promise<DatabaseFacts & { pauseMs: number }> {
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) throw new BackupError(`There is no embedded database in ${pgDir}.`);
  const copy = path.join(scratch, 'pgdata');
  const size = treeOf(pgDir).files.reduce((sum, rel) => sum + fs.statSync(path.join(pgDir, rel)).size, 0);
  const ahead = size <= IN_MEMORY_LIMIT ? await readAhead(pgDir) : undefined;
  // Most dirty pages are written out before the pause; the checkpoint inside it then has little left to do.
  await sql`CHECKPOINT`.execute(db);
  let pauseMs = 0;
  const { facts, tree } = await db.connection().execute(async (conn) => {
    const started = performance.now();
    const read = await readFacts(conn);
    await sql`CHECKPOINT`.execute(conn);
    const settled = ahead ? await settle(pgDir, ahead) : await copyTree(pgDir, copy);
    pauseMs = Math.round(performance.now() - started);
    return { facts: read, tree: settled };
  });
  if (tree) await writeTree(copy, tree);
  await fs.promises.mkdir(path.dirname(outFile), { recursive: true });
  await runTool('tar', ['-czf', outFile, '-C', copy, '.']);
  await fs.promises.rm(copy, { recursive: true, force: true });
  return { ...facts, pauseMs };
}

/**
 * Unpacks a dump into `pgDir` (which must not exist) and opens it once: an archive whose database
 * PGlite cannot open fails here, before anything is put in place. Answers what it holds.
 */
export async function loadPglite(dumpFile: string, pgDir: string): Promise<DatabaseFacts> {
  await fs.promises.mkdir(pgDir, { recursive: false });
  await runTool('tar', ['-xzf', dumpFile, '-C', pgDir, '--no-same-owner']);
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) throw new BackupError('The archive has no embedded database in it (no PG_VERSION).');
  let handle;
  try {
    handle = await openDatabase({ kind: 'pglite', dataDir: pgDir });
  } catch (error) {
    throw new BackupError(`The embedded database in the archive does not open: ${(error as Error).message}`);
  }
  try {
    return await readFacts(handle.db);
  } finally {
    await handle.close();
  }
}
