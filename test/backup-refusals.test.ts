import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup } from '../src/server/ops/backup';
import { restoreBackup, type RestoreTarget } from '../src/server/ops/backup/restore';
import { PG_TOOLS, postgresTarget } from '../src/server/ops/backup/postgres-dump';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser } from './helpers/factories';
import { testDatabaseKind } from './helpers/test-db';
import {
  backupSource,
  dropAll,
  filesUnder,
  migratedDatabase,
  postgresDatabase,
  repack,
  tempDir,
  type BackupTestDatabase,
} from './helpers/backup';

// What a restore refuses, and that a refused restore leaves its target exactly as it was.
const embedded = testDatabaseKind === 'pglite';
const dirs: string[] = [];
const databases: BackupTestDatabase[] = [];
const dir = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

let source: BackupTestDatabase;
let app: TestApp;
let sourceDir: string;
let archive: string;

/** A new empty target of the suite's kind. */
async function emptyTarget(): Promise<RestoreTarget> {
  const dataDir = dir('rp-bk-target-');
  if (embedded) return { kind: 'pglite', dataDir };
  const db = await postgresDatabase();
  databases.push(db);
  await db.handle.close();
  return { kind: 'postgres', url: db.url, dataDir };
}

/** Nothing of a refused restore is left: no database folder or tables, no uploads, no staging folder. */
async function expectUntouched(target: RestoreTarget): Promise<void> {
  expect(filesUnder(target.dataDir)).toEqual([]);
  expect(fs.readdirSync(target.dataDir)).toEqual([]);
  if (target.kind === 'postgres') expect((await postgresTarget(target.url)).relations).toBe(0);
}

beforeAll(async () => {
  sourceDir = dir('rp-bk-source-');
  source = await migratedDatabase(sourceDir);
  databases.push(source);
  app = await createTestApp({
    env: { DATA_DIR: sourceDir, ...(source.url ? { DATABASE_URL: source.url } : {}) },
    build: { database: source.handle },
  });
  const user = await createUser(app.app);
  fs.mkdirSync(path.join(sourceDir, 'uploads', 'gallery'), { recursive: true });
  fs.writeFileSync(path.join(sourceDir, 'uploads', 'gallery', 'kept.webp'), 'kept');
  // A row pointing at an image whose file is gone: the backup must say so rather than pretend.
  await app.app.ctx.db
    .insertInto('media')
    .values({ userId: user.row.id, kind: 'avatar', storageKey: 'avatars/gone.webp', width: 1, height: 1, bytes: 1 })
    .execute();
  archive = (
    await createBackup({ source: backupSource(source, sourceDir), dataDir: sourceDir, backupDir: dir('rp-bk-archives-'), keep: 0 })
  ).archive;
}, 120_000);

afterAll(async () => {
  await app?.close().catch(() => undefined);
  await dropAll(databases);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe(`what a restore refuses (${embedded ? 'embedded database' : 'PostgreSQL'})`, () => {
  it('refuses a truncated archive and one with an altered file, touching nothing', async () => {
    const truncated = path.join(dir('rp-bk-bad-'), 'truncated.tar');
    const bytes = fs.readFileSync(archive);
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const target = await emptyTarget();
    await expect(restoreBackup({ archive: truncated, target, force: false })).rejects.toThrow(/is damaged|not a readable backup archive/);
    await expectUntouched(target);

    const altered = repack(archive, path.join(dir('rp-bk-bad-'), 'altered.tar'), (d) => {
      const dump = path.join(d, 'database', fs.readdirSync(path.join(d, 'database'))[0]!);
      const content = fs.readFileSync(dump);
      content[Math.floor(content.length / 2)]! ^= 0xff;
      fs.writeFileSync(dump, content);
    });
    await expect(restoreBackup({ archive: altered, target, force: false })).rejects.toThrow(
      /is damaged: database\/.* does not match its checksum/,
    );
    await expectUntouched(target);
    await expect(restoreBackup({ archive: altered, target, force: false, verifyOnly: true })).rejects.toThrow(/is damaged/);
  }, 60_000);

  it('rolls back a restore whose database does not hold what the manifest says', async () => {
    const lying = repack(archive, path.join(dir('rp-bk-bad-'), 'lying.tar'), (d) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(d, 'manifest.json'), 'utf8'));
      manifest.counts.users += 1;
      fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(manifest));
    });
    const target = await emptyTarget();
    await expect(restoreBackup({ archive: lying, target, force: false })).rejects.toThrow(/users: the archive has \d+, the restore/);
    await expectUntouched(target);
  }, 90_000);

  it('refuses an archive made by a newer version of the app (a schema migration this code lacks)', async () => {
    const newer = repack(archive, path.join(dir('rp-bk-bad-'), 'newer.tar'), (d) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(d, 'manifest.json'), 'utf8'));
      manifest.database.migration = '29991231_0000_from_the_future';
      fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(manifest));
    });
    const target = await emptyTarget();
    await expect(restoreBackup({ archive: newer, target, force: false })).rejects.toThrow(
      /schema is at migration 29991231_0000_from_the_future, which this version of the app does not have/,
    );
    await expectUntouched(target);
  });

  it('refuses an archive of the other kind, naming the way out', async () => {
    const target: RestoreTarget = embedded
      ? { kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/nowhere', dataDir: dir('rp-bk-target-') }
      : { kind: 'pglite', dataDir: dir('rp-bk-target-') };
    await expect(restoreBackup({ archive, target, force: true })).rejects.toThrow(
      embedded ? /holds the embedded database\b.*--data-dir/ : /holds a PostgreSQL database\b.*--database-url/,
    );
    expect(fs.readdirSync(target.dataDir)).toEqual([]);
  });

  it('refuses, even with --force, a target an app is using', async () => {
    const target: RestoreTarget = embedded
      ? { kind: 'pglite', dataDir: sourceDir }
      : { kind: 'postgres', url: source.url, dataDir: sourceDir };
    await expect(restoreBackup({ archive, target, force: true })).rejects.toThrow(
      embedded
        ? /The app \(pid \d+\) is using the embedded database .* stop it before restoring/
        : /other connections are open to .*stop every instance/,
    );
    // Still the same database, serving.
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM users`.execute(app.app.ctx.db)).rows[0]!.n).toBe(1);
  });

  it('says which images the database refers to that the archive lacks, and restores the rest', async () => {
    const target = await emptyTarget();
    const result = await restoreBackup({ archive, target, force: false });
    expect(result.manifest.uploads.missing).toEqual(['avatars/gone.webp']);
    expect(result.warnings.join('\n')).toContain('avatars/gone.webp');
    expect(filesUnder(path.join(target.dataDir, 'uploads'))).toEqual([path.join('gallery', 'kept.webp')]);
  }, 90_000);

  it.runIf(!embedded)('refuses to back up with a pg_dump older than the server, naming the client to install', async () => {
    const fake = path.join(dir('rp-bk-tools-'), 'pg_dump');
    fs.writeFileSync(fake, '#!/bin/sh\necho "pg_dump (PostgreSQL) 14.11"\n', { mode: 0o755 });
    const real = PG_TOOLS.dump;
    PG_TOOLS.dump = fake;
    const backupDir = dir('rp-bk-archives-');
    try {
      await expect(createBackup({ source: backupSource(source, sourceDir), dataDir: sourceDir, backupDir, keep: 0 })).rejects.toThrow(
        /runs PostgreSQL 15\.\d+.* but .*pg_dump is pg_dump \(PostgreSQL\) 14\.11: install the PostgreSQL 15 client tools \(postgresql-client-15\)/,
      );
    } finally {
      PG_TOOLS.dump = real;
    }
    expect(fs.readdirSync(backupDir)).toEqual([]);
  });
});
