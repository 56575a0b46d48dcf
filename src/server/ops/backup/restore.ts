import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readManifest, unpackArchive } from './archive';
import { countDifferences } from './facts';
import { holdsNoFile, livePidIn, move, moveContents } from './files';
import { BackupError, UPLOADS_FOLDER, type Manifest } from './manifest';
import { loadPglite } from './pglite-dump';
import { majorOf, PG_TOOLS, postgresTarget, restorePostgres } from './postgres-dump';
import { runTool } from './run-tool';
import { checkKind, checkSchema } from './restore-checks';

/** Where a restore goes: the embedded database in DATA_DIR/db, or a PostgreSQL database; uploads to DATA_DIR/uploads. */
export type RestoreTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; dataDir: string };

export interface RestoreOptions {
  archive: string;
  target: RestoreTarget;
  /** Replace a target that is not empty (its old embedded database and uploads are moved aside, not deleted). */
  force: boolean;
  /** Only check the archive (manifest, every checksum, that its database opens or reads); touch no target. */
  verifyOnly?: boolean;
}

export interface RestoreResult {
  manifest: Manifest;
  /** What the operator should still do or know (secrets, images the archive lacked). */
  warnings: string[];
  /** Where `force` put what the target held before, when it held anything. */
  movedAside: string | undefined;
}

/**
 * Restores an archive into an empty target, or refuses with a message that says why and what to do.
 * Everything is unpacked and checked in a private folder inside DATA_DIR first; the target is only
 * touched once the archive proved whole, and the embedded database folder appears last.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const { archive, target, force } = options;
  const manifest = await readManifest(archive);
  // Checking an archive needs no target of its kind.
  if (!options.verifyOnly) checkKind(manifest, target);
  checkSchema(manifest);
  const dataDir = target.dataDir;
  const pgDir = path.join(dataDir, 'db');
  const uploadsDir = path.join(dataDir, UPLOADS_FOLDER);
  if (!options.verifyOnly) await checkTargetIsFree(target, manifest, force);

  await fs.promises.mkdir(dataDir, { recursive: true });
  const staging = path.join(dataDir, `.restore-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  await fs.promises.mkdir(staging, { mode: 0o700 });
  let unlock = () => undefined as void;
  try {
    await unpackArchive(archive, staging, manifest);
    const dump = path.join(staging, manifest.database.file);
    if (options.verifyOnly) {
      if (manifest.database.kind === 'pglite') await loadAndCompare(dump, path.join(staging, 'db'), manifest);
      else await runTool(PG_TOOLS.restore, ['--list', dump]);
      return { manifest, warnings: warningsFor(manifest, undefined), movedAside: undefined };
    }

    let movedAside: string | undefined;
    const aside = () => (movedAside ??= path.join(dataDir, `before-restore-${new Date().toISOString().replace(/[-:.]/g, '')}`));
    if (target.kind === 'pglite') {
      unlock = lockDataDir(pgDir);
      await loadAndCompare(dump, path.join(staging, 'db'), manifest);
      if (fs.existsSync(pgDir)) await move(pgDir, path.join(aside(), 'db'));
    } else {
      await restorePostgres(target.url, dump, manifest, force);
    }
    if (!(await holdsNoFile(uploadsDir))) await moveContents(uploadsDir, path.join(aside(), UPLOADS_FOLDER));
    await moveContents(path.join(staging, UPLOADS_FOLDER), uploadsDir);
    // Last: an embedded database folder in place means the restore is complete.
    if (target.kind === 'pglite') await move(path.join(staging, 'db'), pgDir);
    return { manifest, warnings: warningsFor(manifest, dataDir), movedAside };
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
    unlock();
  }
}

/** A non-empty target is refused unless forced; a running app on it, or a newer source server, always. */
async function checkTargetIsFree(target: RestoreTarget, manifest: Manifest, force: boolean): Promise<void> {
  const pgDir = path.join(target.dataDir, 'db');
  const uploadsDir = path.join(target.dataDir, UPLOADS_FOLDER);
  const held: string[] = [];
  if (target.kind === 'pglite') {
    const pid = livePidIn(`${pgDir}.lock`);
    if (pid !== undefined)
      throw new BackupError(`The app (pid ${pid}) is using the embedded database in ${pgDir}: stop it before restoring.`);
    if (fs.existsSync(pgDir) && fs.readdirSync(pgDir).length > 0) held.push(`${pgDir} holds a database`);
  } else {
    const found = await postgresTarget(target.url);
    if (majorOf(found.serverVersion) < majorOf(manifest.database.serverVersion))
      throw new BackupError(
        `The archive comes from PostgreSQL ${manifest.database.serverVersion}; the target runs ${found.serverVersion}. ` +
          `Restore into PostgreSQL ${majorOf(manifest.database.serverVersion)} or newer.`,
      );
    if (found.relations > 0) held.push(`the database ${databaseName(target.url)} has ${found.relations} tables, views or sequences`);
    if (force && found.otherConnections > 0)
      throw new BackupError(
        `${found.otherConnections} other connections are open to ${databaseName(target.url)}: stop every instance of the app before restoring over it.`,
      );
  }
  if (!(await holdsNoFile(uploadsDir))) held.push(`${uploadsDir} holds files`);
  if (held.length && !force)
    throw new BackupError(
      `The target is not empty: ${held.join('; ')}. Restore into an empty ` +
        `${target.kind === 'pglite' ? 'DATA_DIR' : 'database (createdb) and an empty DATA_DIR/uploads'}, ` +
        `or pass --force to replace it${target.kind === 'pglite' ? ' (what is there is moved aside, not deleted)' : ' (the database schemas public and pgboss are dropped; old uploads are moved aside)'}.`,
    );
}

async function loadAndCompare(dump: string, into: string, manifest: Manifest): Promise<void> {
  const facts = await loadPglite(dump, into);
  const differences = countDifferences(manifest.counts, facts.counts);
  if (differences.length) throw new BackupError(`The restored database does not match the archive: ${differences.join('; ')}.`);
}

/** What to tell the operator; `dataDir` (where the restore went) for the secrets file, unset when only checking. */
function warningsFor(manifest: Manifest, dataDir: string | undefined): string[] {
  const warnings: string[] = [];
  if (dataDir && manifest.secretsFileAtSource && !fs.existsSync(path.join(dataDir, 'secrets.json')))
    warnings.push(
      'The source had DATA_DIR/secrets.json (the generated JWT secret and push keys); archives leave it out. Copy it into ' +
        `${dataDir} from where you keep it, or set JWT_SECRET and VAPID_*: with new keys everyone logs in again and push subscriptions stop working.`,
    );
  if (manifest.uploads.missing.length)
    warnings.push(
      `${manifest.uploads.missing.length} stored images the database refers to were deleted while the backup ran and are not in it ` +
        `(${manifest.uploads.missing.slice(0, 5).join(', ')}): those pages show no image until their owners upload one again.`,
    );
  return warnings;
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
}

/**
 * Holds DATA_DIR/db.lock while restoring, so an app started meanwhile is refused instead of
 * creating a new database where the restored one is about to go (the app's own pid lock).
 */
function lockDataDir(pgDir: string): () => void {
  const lockFile = `${pgDir}.lock`;
  const pid = livePidIn(lockFile);
  if (pid !== undefined && pid !== process.pid) throw new BackupError(`The app (pid ${pid}) is using ${pgDir}: stop it before restoring.`);
  fs.rmSync(lockFile, { force: true });
  fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  return () => fs.rmSync(lockFile, { force: true });
}
