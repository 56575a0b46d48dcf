import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { createBackup, type BackupSource } from '../src/server/ops/backup';
import { archiveName } from '../src/server/ops/backup/manifest';
import { listArchives } from '../src/server/ops/backup/retention';
import { scheduleBackups } from '../src/server/ops/backup/schedule';
import { createTestApp } from './helpers/test-app';
import { testDatabaseKind } from './helpers/test-db';
import { until } from './helpers/until';
import { backupSource, migratedDatabase, tempDir, type BackupTestDatabase } from './helpers/backup';

// Retention, scheduled backups (timed from the newest archive) and failures that leave nothing behind.
const dirs: string[] = [];
const dir = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

let source: BackupTestDatabase;
let dataDir: string;
let from: BackupSource;

beforeAll(async () => {
  dataDir = dir('rp-bk-source-');
  source = await migratedDatabase(dataDir);
  from = backupSource(source, dataDir);
}, 60_000);

afterAll(async () => {
  await source?.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe(`backup retention and schedule (${testDatabaseKind === 'pglite' ? 'embedded database' : 'PostgreSQL'})`, () => {
  it('keeps the newest N archives and never touches a file it did not name', async () => {
    const backupDir = dir('rp-bk-archives-');
    const foreign = [
      'notes.txt',
      'rp-backup-manual.tar',
      'rp-backup-20200101T000000Z.tar.gz',
      archiveName(new Date('2020-01-01T00:00:00Z')) + '.bak',
    ];
    for (const name of foreign) fs.writeFileSync(path.join(backupDir, name), 'not ours');
    // An archive of ours from long ago: the oldest, so the first to go.
    const ancient = archiveName(new Date('2021-05-01T12:00:00Z'));
    fs.writeFileSync(path.join(backupDir, ancient), 'old');
    const at = new Date('2026-12-03T10:00:00Z');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await createBackup({ source: from, dataDir, backupDir, keep: 2, now: () => at });
      made.push(path.basename(result.archive));
    }
    // Three in one second: the later ones take the next free names instead of replacing the first.
    expect(made).toEqual(['rp-backup-20261203T100000Z.tar', 'rp-backup-20261203T100000Z-1.tar', 'rp-backup-20261203T100000Z-2.tar']);
    expect(listArchives(backupDir)).toEqual(['rp-backup-20261203T100000Z-2.tar', 'rp-backup-20261203T100000Z-1.tar']);
    expect(fs.readdirSync(backupDir).sort()).toEqual([...foreign, made[1], made[2]].sort());
  }, 90_000);

  it('a backup that fails half-way leaves no archive, no partial file and no staging folder', async () => {
    const backupDir = dir('rp-bk-archives-');
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'uploads', 'x.webp'), 'image');
    // The uploads are linked first; the database step then fails.
    const broken: BackupSource =
      from.kind === 'pglite'
        ? { ...from, pgDir: dir('rp-bk-nodb-') }
        : { kind: 'postgres', url: from.url.replace(/\/[^/]*$/, '/rp_backup_test_missing') };
    await expect(createBackup({ source: broken, dataDir, backupDir, keep: 2 })).rejects.toThrow(/no embedded database|does not exist/);
    expect(fs.readdirSync(backupDir)).toEqual([]);
  }, 30_000);

  it('makes a backup when the newest archive is older than the interval, not before, and applies the retention', async () => {
    const backupDir = dir('rp-bk-archives-');
    let runs = 0;
    const run = async () => {
      runs++;
      await createBackup({ source: from, dataDir, backupDir, keep: 2 });
    };
    const errors: unknown[] = [];
    const options = { checkMs: 50, backupDir, run, onError: (e: unknown) => errors.push(e), running: () => true };
    // A fresh archive and an interval of an hour: nothing is due.
    await run();
    runs = 0;
    const idle = scheduleBackups({ ...options, everyMs: 3600_000 });
    await new Promise((r) => setTimeout(r, 400));
    idle.stop();
    expect(runs).toBe(0);
    // Every 1.5 s: due again and again, each one timed from the archive before it.
    const busy = scheduleBackups({ ...options, everyMs: 1500 });
    await until(async () => runs >= 3, 60_000);
    busy.stop();
    await until(async () => listArchives(backupDir).length === 2 && !fs.readdirSync(backupDir).some((n) => n.startsWith('.')), 30_000);
    expect(errors).toEqual([]);
  }, 120_000);

  it('the running app makes scheduled backups itself with BACKUP_EVERY_HOURS', async () => {
    const backupDir = dir('rp-bk-archives-');
    const t = await createTestApp({
      env: {
        DATA_DIR: dataDir,
        BACKUP_DIR: backupDir,
        BACKUP_EVERY_HOURS: '24',
        BACKUP_KEEP: '3',
        ...(source.url ? { DATABASE_URL: source.url } : {}),
      },
      build: { database: source.handle },
    });
    try {
      // None yet in BACKUP_DIR, so one is due at the first check, a few seconds after start-up.
      await until(async () => listArchives(backupDir).length === 1, 60_000);
    } finally {
      await t.close();
    }
    expect(fs.readdirSync(backupDir)).toEqual(listArchives(backupDir));
  }, 90_000);

  it('reads BACKUP_DIR, BACKUP_EVERY_HOURS and BACKUP_KEEP, with their defaults and limits', () => {
    expect(loadConfig({ DATA_DIR: '/srv/rp' }).backup).toEqual({ dir: '/srv/rp/backups', everyHours: undefined, keep: 7 });
    expect(loadConfig({ BACKUP_DIR: '/mnt/b', BACKUP_EVERY_HOURS: '6', BACKUP_KEEP: '0' }).backup).toEqual({
      dir: '/mnt/b',
      everyHours: 6,
      keep: 0,
    });
    expect(() => loadConfig({ BACKUP_EVERY_HOURS: '0.5', BACKUP_KEEP: '-1' })).toThrow(
      /BACKUP_EVERY_HOURS: must be a whole number of hours[\s\S]*BACKUP_KEEP/,
    );
  });
});
