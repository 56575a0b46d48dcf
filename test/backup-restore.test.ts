import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/server/db/database';
import { VOTE_REWARDS_QUEUE } from '../src/server/modules/vote-rewards';
import { manifestSchema, type Manifest } from '../src/server/ops/backup/manifest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, type TestUser } from './helpers/factories';
import { file, makeImage, multipart } from './helpers/multipart';
import { testDatabaseKind } from './helpers/test-db';
import {
  counterMismatches,
  filesUnder,
  migratedDatabase,
  postgresDatabase,
  runBackupCli,
  tempDir,
  dropAll,
  type BackupTestDatabase,
} from './helpers/backup';

// One source deployment backed up while it serves writes, then restored into fresh targets of the
// same kind: the embedded database on disk, or PostgreSQL databases of their own (rp_backup_test_*).
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
let backupDir: string;
let owner: TestUser;
let imageUrl: string;
let imageBytes: Buffer;
let jobId: string;
let archive: string;

const act = (serverId: number, action: 'like' | 'dislike' | 'join', user: TestUser) =>
  app.app.inject({ method: 'POST', url: `/api/servers/${serverId}/${action}`, headers: user.headers });

/** A fresh, empty target of the suite's kind: a new DATA_DIR, and on PostgreSQL a new empty database. */
async function emptyTarget(): Promise<{ dataDir: string; url: string; db?: BackupTestDatabase }> {
  const dataDir = dir('rp-bk-target-');
  if (embedded) return { dataDir, url: '' };
  const db = await postgresDatabase();
  databases.push(db);
  // The restore must be the only one connected (a forced one checks): the helper's own pool goes.
  await db.handle.close();
  return { dataDir, url: db.url, db };
}

/** Opens what a restore put in place, as the app would: DATA_DIR/db, or the database at `url`. */
function openRestored(target: { dataDir: string; url: string }): Promise<DatabaseHandle> {
  return embedded
    ? openDatabase({ kind: 'pglite', dataDir: path.join(target.dataDir, 'db') })
    : openDatabase({ kind: 'postgres', url: target.url, poolSize: 5 });
}

const readManifest = (file: string): Manifest =>
  manifestSchema.parse(JSON.parse(execFileSync('tar', ['-xOf', file, 'manifest.json'], { encoding: 'utf8' })));

beforeAll(async () => {
  sourceDir = dir('rp-bk-source-');
  backupDir = dir('rp-bk-archives-');
  source = await migratedDatabase(sourceDir);
  databases.push(source);
  app = await createTestApp({
    env: { DATA_DIR: sourceDir, BACKUP_DIR: backupDir, ...(source.url ? { DATABASE_URL: source.url } : {}) },
    build: { database: source.handle },
  });
  owner = await createUser(app.app, { role: 'server_owner', plan: 'Premium' });
  const server = await createServer(app.app, owner.row.id);
  const body = multipart([file('profilePicture', await makeImage('jpeg', 300, 300), 'me.jpg', 'image/jpeg')]);
  const uploaded = await app.app.inject({
    method: 'POST',
    url: `/api/servers/${server.id}/upload-profile`,
    headers: { ...owner.headers, ...body.headers },
    payload: body.payload,
  });
  expect(uploaded.statusCode).toBe(200);
  imageUrl = uploaded.json().profilePicture;
  imageBytes = fs.readFileSync(path.join(sourceDir, imageUrl));
  const [a, b, c] = await Promise.all([createUser(app.app), createUser(app.app), createUser(app.app)]);
  expect((await act(server.id, 'like', a!)).statusCode).toBe(200);
  expect((await act(server.id, 'dislike', b!)).statusCode).toBe(200);
  expect((await act(server.id, 'join', c!)).statusCode).toBe(200);
  // A job waiting in the queue (not due for an hour): it must come back with the restore.
  jobId = (await app.app.ctx.queue.send(VOTE_REWARDS_QUEUE, { deliveryId: 0 }, { startAfter: 3600 }))!;
  expect(jobId).toBeTruthy();
}, 120_000);

afterAll(async () => {
  await app?.close().catch(() => undefined);
  await dropAll(databases);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe(`backups and restores (${embedded ? 'embedded database' : 'PostgreSQL'})`, () => {
  it('npm run backup writes one archive while the app serves votes: database, uploads and a manifest, nothing half-written', async () => {
    const servers = await Promise.all(Array.from({ length: 3 }, () => createServer(app.app, owner.row.id)));
    const voters = await Promise.all(Array.from({ length: 30 }, () => createUser(app.app)));
    let backingUp = true;
    let during = 0;
    // Votes and joins keep arriving for as long as the backup runs (its snapshot lands among them).
    const writer = (async () => {
      for (const voter of voters)
        for (const [i, server] of servers.entries()) {
          if (!backingUp) return;
          const res = await act(server.id, i === 1 ? 'join' : 'like', voter);
          expect(res.statusCode).toBe(200);
          during++;
        }
    })();
    const run = await runBackupCli(['backup'], { DATA_DIR: sourceDir, BACKUP_DIR: backupDir, DATABASE_URL: source.url });
    backingUp = false;
    await writer;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Backup written: .*rp-backup-\d{8}T\d{6}Z\.tar \(/);
    expect(during).toBeGreaterThan(0);
    if (embedded) {
      // The app holds the embedded database, so the command asked it through its socket.
      expect(fs.existsSync(path.join(sourceDir, 'backup.sock'))).toBe(true);
    }

    // Exactly one archive, and no staging folder or partial file left beside it.
    const names = fs.readdirSync(backupDir);
    expect(names).toHaveLength(1);
    archive = path.join(backupDir, names[0]!);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    const manifest = readManifest(archive);
    expect(manifest.database).toMatchObject({ kind: testDatabaseKind, migration: expect.stringMatching(/^\d{8}_\d{4}_/) });
    if (!embedded) expect(manifest.database.dumpTool).toMatch(/^pg_dump \(PostgreSQL\) 15\./);
    expect(manifest.counts.users).toBeGreaterThanOrEqual(34);
    expect(manifest.counts.pendingJobs).toBeGreaterThanOrEqual(1);
    expect(manifest.uploads).toMatchObject({ files: 1, missing: [] });
    expect(Object.keys(manifest.files)).toContain(`uploads/${imageUrl.replace('/uploads/', '')}`);

    // The archive checks out on its own (every checksum; its database opens or pg_restore reads it).
    const verified = await runBackupCli(['restore', archive, '--verify'], { DATA_DIR: dir('rp-bk-verify-'), DATABASE_URL: source.url });
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(`The archive is whole: a ${testDatabaseKind} backup from ${manifest.createdAt}`);
  }, 120_000);

  it('restores into an empty target: users log in, counters equal their rows, the image loads, the pending job is back', async () => {
    await app.close();
    const manifest = readManifest(archive);
    const target = await emptyTarget();
    const run = await runBackupCli(['restore', archive], { DATA_DIR: target.dataDir, DATABASE_URL: target.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Restored the backup from');
    // The generated secrets are not in archives: the restore says so, and the operator copies them.
    expect(run.stderr).toMatch(/^Warning: The source had DATA_DIR\/secrets\.json .* Copy it into /);
    fs.copyFileSync(path.join(sourceDir, 'secrets.json'), path.join(target.dataDir, 'secrets.json'));

    const handle = await openRestored(target);
    const restored = await createTestApp({
      env: { DATA_DIR: target.dataDir, ...(target.url ? { DATABASE_URL: target.url } : {}) },
      build: { database: handle },
    });
    try {
      const login = await restored.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: owner.row.username, password: TEST_PASSWORD },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.username).toBe(owner.row.username);
      // With the same secrets file, a token issued before the backup still works.
      const me = await restored.app.inject({ url: '/api/user', headers: owner.headers });
      expect(me.statusCode).toBe(200);

      const db = restored.app.ctx.db;
      expect(await counterMismatches(db)).toEqual([]);
      const rows = await db
        .selectFrom('votes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(manifest.counts.votes);
      expect(manifest.counts.votes + manifest.counts.joins).toBeGreaterThanOrEqual(3);

      const image = await restored.app.inject({ url: imageUrl });
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload.equals(imageBytes)).toBe(true);

      const job = await restored.app.ctx.queue.getJobById(VOTE_REWARDS_QUEUE, jobId);
      expect(job?.state).toBe('created');
    } finally {
      await restored.close();
      await handle.close();
    }

    // Into the same target again: refused, with the reason and the way out, and nothing changed.
    const again = await runBackupCli(['restore', archive], { DATA_DIR: target.dataDir, DATABASE_URL: target.url });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The target is not empty');
    expect(again.stderr).toContain('--force');
    expect(filesUnder(path.join(target.dataDir, 'uploads'))).toHaveLength(1);

    // Told to: replaced, the old embedded database and uploads kept aside.
    const forced = await runBackupCli(['restore', archive, '--force'], { DATA_DIR: target.dataDir, DATABASE_URL: target.url });
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    const aside = fs.readdirSync(target.dataDir).filter((n) => n.startsWith('before-restore-'));
    expect(aside).toHaveLength(1);
    expect(filesUnder(path.join(target.dataDir, aside[0]!, 'uploads'))).toHaveLength(1);
    if (embedded) expect(fs.existsSync(path.join(target.dataDir, aside[0]!, 'db', 'PG_VERSION'))).toBe(true);
    const reopened = await openRestored(target);
    try {
      const users = await reopened.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(users.n)).toBe(manifest.counts.users);
    } finally {
      await reopened.close();
    }
  }, 180_000);
});
