import crypto from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import type { Database } from '../../src/server/db/schema';
import type { BackupSource } from '../../src/server/ops/backup';
import { adminUrl, withDatabase } from './postgres';
import { testDatabaseKind } from './test-db';

const CLI = path.resolve('src/server/ops/backup/cli.ts');

/** What `npm run backup` / `npm run restore` printed and how it exited. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the backup command line as `npm run` does (node + tsx), with exactly the environment given. */
export function runBackupCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A migrated database of the suite's kind that the backup can reach the way it does in production:
 * the embedded one on disk in `dataDir/db` (loaded from the run's template), or a PostgreSQL
 * database of its own (`rp_backup_test_*`, made from the run's template; dropped by `drop`).
 */
export interface BackupTestDatabase {
  handle: DatabaseHandle;
  /** DATABASE_URL for the app and the command line ('' on the embedded database). */
  url: string;
  drop(): Promise<void>;
}

export async function migratedDatabase(dataDir: string): Promise<BackupTestDatabase> {
  if (testDatabaseKind === 'pglite') {
    const dump = fs.readFileSync(inject('pgliteTemplate'));
    const handle = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db'), loadFrom: new Blob([dump]) });
    return { handle, url: '', drop: () => handle.close() };
  }
  return postgresDatabase(inject('postgresTemplate'));
}

/** An empty PostgreSQL database (`createdb`), or, with a template, a copy of it. */
export async function postgresDatabase(template?: string): Promise<BackupTestDatabase> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `rp_backup_test_${crypto.randomBytes(5).toString('hex')}`;
  // No statement timeout: on a busy machine a DROP DATABASE cut off half-way leaves an invalid database behind.
  const admin = await openDatabase({ kind: 'postgres', url: adminUrl(base), poolSize: 1, statementTimeoutMs: 0 });
  await (template ? sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(template)}` : sql`CREATE DATABASE ${sql.id(name)}`).execute(
    admin.db,
  );
  const url = withDatabase(base, name);
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
  let dropped = false;
  return {
    handle,
    url,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await handle.close().catch(() => undefined);
      await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db);
      await admin.close();
    },
  };
}

/** Servers whose like, dislike or join counter differs from the counted rows, as readable lines. */
export async function counterMismatches(db: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{
    id: number;
    likes: number;
    likeRows: number;
    dislikes: number;
    dislikeRows: number;
    totalJoins: number;
    joinRows: number;
  }>`
    SELECT s.id, s.likes, s.dislikes, s.total_joins,
      (SELECT count(*) FROM votes v WHERE v.server_id = s.id AND v.status = 'counted' AND v.type = 'like')::int AS like_rows,
      (SELECT count(*) FROM votes v WHERE v.server_id = s.id AND v.status = 'counted' AND v.type = 'dislike')::int AS dislike_rows,
      (SELECT count(*) FROM joins j WHERE j.server_id = s.id AND j.status = 'counted')::int AS join_rows
    FROM servers s`.execute(db);
  return rows.rows.flatMap((r) => [
    ...(r.likes !== r.likeRows ? [`server ${r.id}: likes ${r.likes}, rows ${r.likeRows}`] : []),
    ...(r.dislikes !== r.dislikeRows ? [`server ${r.id}: dislikes ${r.dislikes}, rows ${r.dislikeRows}`] : []),
    ...(r.totalJoins !== r.joinRows ? [`server ${r.id}: joins ${r.totalJoins}, rows ${r.joinRows}`] : []),
  ]);
}

/** The files of a folder tree, relative, sorted (none when it is absent). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** How the backup reaches a test database: the embedded one held here, or PostgreSQL by URL. */
export function backupSource(db: BackupTestDatabase, dataDir: string): BackupSource {
  return db.url ? { kind: 'postgres', url: db.url } : { kind: 'pglite', db: db.handle.db, pgDir: path.join(dataDir, 'db') };
}

/** Unpacks an archive, lets `change` alter the unpacked files, and packs it again (manifest first, as the tool does). */
export function repack(archive: string, into: string, change: (dir: string) => void): string {
  const dir = tempDir('rp-bk-repack-');
  try {
    execFileSync('tar', ['-xf', archive, '-C', dir]);
    change(dir);
    const order = ['manifest.json', ...fs.readdirSync(dir).filter((e) => e !== 'manifest.json')];
    execFileSync('tar', ['-cf', into, '-C', dir, ...order]);
    return into;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Drops every database of the list, then reports the first that could not be dropped (none is left behind silently). */
export async function dropAll(databases: BackupTestDatabase[]): Promise<void> {
  const results = await Promise.allSettled(databases.map((db) => db.drop()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
