import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { digestAll, packArchive } from './archive';
import type { DatabaseFacts } from './facts';
import { addMissingFiles, listFiles } from './files';
import { APP_VERSION, PGLITE_DUMP_FILE, POSTGRES_DUMP_FILE, UPLOADS_FOLDER, type Manifest } from './manifest';
import { dumpPglite } from './pglite-dump';
import { dumpPostgres } from './postgres-dump';
import { pruneArchives, removeLeftovers } from './retention';

/** The database a backup dumps: the embedded one open in this process, or PostgreSQL by URL. */
export type BackupSource = { kind: 'pglite'; db: Kysely<Database>; pgDir: string } | { kind: 'postgres'; url: string };

export interface BackupOptions {
  source: BackupSource;
  /** DATA_DIR: its `uploads/` go into the archive. */
  dataDir: string;
  /** Where the archive is written (BACKUP_DIR). */
  backupDir: string;
  /** Keep the newest this many archives afterwards (0: all). */
  keep: number;
  now?: () => Date;
}

export interface BackupResult {
  archive: string;
  bytes: number;
  manifest: Manifest;
  /** Older archives deleted by the retention count. */
  removed: string[];
  /** Embedded database: how long requests that needed it waited for the copy (ms). */
  pauseMs: number | undefined;
}

/**
 * Writes one archive of the database and the uploads, while the app runs.
 *
 * Order, for an archive whose database never points at an image it lacks: the app stores an image
 * (under a new random name, never reused) before the row that refers to it commits, and deletes a
 * file only after the row stopped referring to it. So the uploads are hard-linked first (a link
 * keeps the bytes even when the app deletes the file later), then the database is dumped at one
 * instant, then the images added meanwhile are linked too. An image the snapshot refers to is
 * missing only if it was added AND deleted again while the dump ran; the manifest lists any such.
 * Files deleted before the snapshot may ride along unreferenced: harmless.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const { source, dataDir, backupDir } = options;
  await fs.promises.mkdir(backupDir, { recursive: true, mode: 0o700 });
  removeLeftovers(backupDir);
  const staging = path.join(backupDir, `.staging-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  await fs.promises.mkdir(staging, { mode: 0o700 });
  try {
    const uploads = path.join(dataDir, 'uploads');
    const staged = path.join(staging, UPLOADS_FOLDER);
    await fs.promises.mkdir(staged);
    await addMissingFiles(uploads, staged);

    const createdAt = (options.now ?? (() => new Date()))();
    let facts: DatabaseFacts;
    let dumpTool = 'pglite';
    let pauseMs: number | undefined;
    const file = source.kind === 'pglite' ? PGLITE_DUMP_FILE : POSTGRES_DUMP_FILE;
    await fs.promises.mkdir(path.join(staging, path.dirname(file)));
    if (source.kind === 'pglite') {
      ({ pauseMs, ...facts } = await dumpPglite(source.db, source.pgDir, path.join(staging, file), path.join(staging, '.scratch')));
    } else {
      ({ dumpTool, ...facts } = await dumpPostgres(source.url, path.join(staging, file)));
    }
    await addMissingFiles(uploads, staged);

    const have = new Set(await listFiles(staged));
    const files = await digestAll(staging);
    const uploadEntries = Object.entries(files).filter(([rel]) => rel.startsWith(`${UPLOADS_FOLDER}/`));
    const manifest: Manifest = {
      format: 'rp-servers-backup',
      formatVersion: 1,
      appVersion: APP_VERSION,
      createdAt: createdAt.toISOString(),
      database: { kind: source.kind, file, migration: facts.migration, serverVersion: facts.serverVersion, dumpTool },
      counts: facts.counts,
      uploads: {
        files: uploadEntries.length,
        bytes: uploadEntries.reduce((sum, [, f]) => sum + f.bytes, 0),
        missing: facts.storageKeys.filter((key) => !have.has(key)),
      },
      secretsFileAtSource: fs.existsSync(path.join(dataDir, 'secrets.json')),
      files,
    };
    const archive = await packArchive(staging, backupDir, createdAt, manifest);
    const removed = pruneArchives(backupDir, options.keep);
    return { archive, bytes: fs.statSync(archive).size, manifest, removed, pauseMs };
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

/** One line for logs and the command line: where, how big, what is in it. */
export function describeBackup(result: BackupResult): string {
  const { counts, uploads } = result.manifest;
  const mb = (result.bytes / 1e6).toFixed(1);
  const parts = [
    `${counts.users} users`,
    `${counts.servers} servers`,
    `${counts.votes} votes`,
    `${uploads.files} uploaded files`,
    `${counts.pendingJobs} pending jobs`,
  ];
  if (result.pauseMs !== undefined) parts.push(`database held ${result.pauseMs} ms`);
  const removed = result.removed.length ? `; removed ${result.removed.length} older (${result.removed.join(', ')})` : '';
  return `${result.archive} (${mb} MB; ${parts.join(', ')})${removed}`;
}
