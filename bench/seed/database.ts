import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { migrateDatabase } from '../../src/server/db/migrate';
import { ensureReferenceData } from '../../src/server/db/reference-data';
import { assertSeed } from './random';
import { recordSchemaDigest, schemaChangedSinceLastRun } from './schema-digest';
import {
  DEFAULT_SEED,
  GENERATOR_VERSION,
  readSeededFacts,
  resetVoters,
  sameSeed,
  seedBench,
  type SeedSizes,
  type SeededFacts,
} from './seed';

/** Where the app under test finds its data: a PostgreSQL database of its own, or an embedded data directory. */
export type BenchTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

export interface PreparedDatabase {
  target: BenchTarget;
  facts: SeededFacts;
  /** Seconds the seed took; undefined when an earlier seed was reused. */
  seedSeconds: number | undefined;
  /** Opens the benchmark database (only while the app is stopped, for the embedded one). */
  open(): Promise<DatabaseHandle>;
  /** Removes what only this run needed (the embedded data directory). */
  dispose(): void;
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Drops a benchmark database of one run (a quick run's own). */
export async function dropDatabase(adminUrl: string, dbName: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`not a plain database name: ${dbName}`);
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}

/** Seeds into the open, migrated database and prints how long each step took. */
async function seedInto(handle: DatabaseHandle, sizes: SeedSizes, seed: number, log: (line: string) => void) {
  const started = performance.now();
  log(`Seeding ${handle.kind === 'postgres' ? 'PostgreSQL' : 'the embedded database'} (seed ${seed}):`);
  const facts = await seedBench(handle.db, sizes, log, seed);
  const seedSeconds = (performance.now() - started) / 1000;
  log(`  seeded in ${seedSeconds.toFixed(1)} s`);
  return { facts, seedSeconds };
}

/**
 * PostgreSQL: (re)creates database `dbName` next to the one `adminUrl` names, migrates it with
 * the app's migrations and seeds it; with `reuse`, an earlier seed of the same seed and sizes (and
 * generator version) is kept (the previous run's benchmark votes are removed first). Without a
 * URL: a new embedded database in a temporary directory. `seed` (default 1) picks the data: the
 * same seed and sizes give the same rows.
 */
export async function prepareDatabase(options: {
  adminUrl: string | undefined;
  dbName: string;
  sizes: SeedSizes;
  reuse: boolean;
  seed?: number;
  log?: (line: string) => void;
}): Promise<PreparedDatabase> {
  const log = options.log ?? console.log;
  const seed = options.seed ?? DEFAULT_SEED;
  assertSeed(seed);
  if (!options.adminUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-'));
    const dbDir = path.join(dataDir, 'db');
    const handle = await openDatabase({ kind: 'pglite', dataDir: dbDir });
    let seeded;
    try {
      await migrateDatabase(handle, undefined);
      await ensureReferenceData(handle.db);
      seeded = await seedInto(handle, options.sizes, seed, log);
    } finally {
      await handle.close();
    }
    return {
      target: { kind: 'pglite', dataDir },
      ...seeded,
      open: () => openDatabase({ kind: 'pglite', dataDir: dbDir }),
      dispose: () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }

  if (!/^[a-z_][a-z0-9_]*$/.test(options.dbName)) throw new Error(`--db must be a plain database name, not ${options.dbName}`);
  const benchUrl = new URL(options.adminUrl);
  benchUrl.pathname = `/${options.dbName}`;
  const url = benchUrl.toString();
  const open = () => openDatabase({ kind: 'postgres', url, poolSize: 1, statementTimeoutMs: 0 });
  const result = (facts: SeededFacts, seedSeconds: number | undefined): PreparedDatabase => ({
    target: { kind: 'postgres', url },
    facts,
    seedSeconds,
    open,
    dispose: () => undefined,
  });

  if (options.reuse) {
    const existing = await open().catch(() => undefined);
    if (existing) {
      try {
        const facts = await readSeededFacts(existing.db).catch(() => undefined);
        const same = facts !== undefined && sameSeed(facts, seed, options.sizes);
        const changed = same && (await schemaChangedSinceLastRun(existing.db));
        if (facts && same && !changed) {
          await migrateDatabase(existing, url);
          // New migrations are the app's own: the next reuse expects the schema they made.
          await recordSchemaDigest(existing.db);
          const removed = await resetVoters(existing.db, facts);
          // The previous run's votes and their removal left dead rows in servers, server_changes and
          // votes; where autovacuum is off, as on this project's machine, each reuse would start
          // slower than the last. What autovacuum would have done:
          const started = performance.now();
          await sql`VACUUM (ANALYZE) servers, server_changes, votes, joins`.execute(existing.db);
          log(
            `Reusing ${options.dbName} (same seed ${seed} and sizes; removed ${removed} votes of the previous run; vacuum ${((performance.now() - started) / 1000).toFixed(1)} s).`,
          );
          return result(facts, undefined);
        }
        if (changed) log(`${options.dbName}'s schema is not the one its last seed or run left (${changed}): seeding it again.`);
        else {
          const held = facts
            ? `seed ${facts.seed ?? 'unrecorded'} of generator ${facts.generator ?? 1} at ${JSON.stringify(facts.sizes)}`
            : 'no benchmark seed';
          log(`${options.dbName} holds ${held}, not seed ${seed} of generator ${GENERATOR_VERSION} at these sizes: seeding it again.`);
        }
      } finally {
        await existing.close();
      }
    }
  }

  await adminQuery(options.adminUrl, `DROP DATABASE IF EXISTS ${options.dbName} WITH (FORCE)`);
  await adminQuery(options.adminUrl, `CREATE DATABASE ${options.dbName}`);
  const handle = await open();
  try {
    await migrateDatabase(handle, url);
    await ensureReferenceData(handle.db);
    // Bulk loading: a crash loses the seed, not consistency, and the seed is redone anyway.
    await sql`SET synchronous_commit = off`.execute(handle.db);
    // The votes are numbered in time order (a sort of a million rows) and the indexes built after the
    // rows: in memory, not in temporary files.
    await sql`SET work_mem = '256MB'`.execute(handle.db);
    await sql`SET maintenance_work_mem = '256MB'`.execute(handle.db);
    // Each statement of the seed runs once on millions of rows: compiling it (JIT) cost seconds each.
    await sql`SET jit = off`.execute(handle.db);
    const seeded = await seedInto(handle, options.sizes, seed, log);
    const started = performance.now();
    // What autovacuum would have done on a database that has been up a while (visibility map, statistics).
    await sql`VACUUM (ANALYZE)`.execute(handle.db);
    log(`  vacuum ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await recordSchemaDigest(handle.db);
    return result(seeded.facts, seeded.seedSeconds);
  } finally {
    await handle.close();
  }
}
