import fs from 'node:fs';
import path from 'node:path';
import { BackupError, type Manifest } from './manifest';

/**
 * An archive restores into the kind of database it was made from: an embedded data directory
 * and a pg_dump file are different things, and which one the target is comes from the
 * configuration (DATABASE_URL set or not) unless the command names it (--data-dir, --database-url).
 */
export function checkKind(manifest: Manifest, target: { kind: 'pglite' | 'postgres' }): void {
  if (manifest.database.kind === target.kind) return;
  if (manifest.database.kind === 'pglite')
    throw new BackupError(
      'This archive holds the embedded database (PGlite), but the target is PostgreSQL (DATABASE_URL is set). ' +
        'Restore it as the embedded database: run without DATABASE_URL, or name the folder with --data-dir DIR. ' +
        'Moving from the embedded database to PostgreSQL is not a restore.',
    );
  throw new BackupError(
    'This archive holds a PostgreSQL database, but the target is the embedded database (DATABASE_URL is not set). ' +
      'Point DATABASE_URL, or --database-url URL, at an empty PostgreSQL database.',
  );
}

/**
 * The migrations this code has, read from its source folder (the command runs from source). An
 * archive whose schema is newer than this code's was made by a newer version of the app: the app
 * would refuse to start on it, so the restore refuses first. An older schema is fine: the app
 * migrates it at start-up.
 */
export function checkSchema(manifest: Manifest, migrationsDir = path.resolve(import.meta.dirname, '../../db/migrations')): void {
  const archived = manifest.database.migration;
  if (!archived || !fs.existsSync(migrationsDir)) return;
  const known = fs
    .readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''));
  if (!known.includes(archived))
    throw new BackupError(
      `The archive's database schema is at migration ${archived}, which this version of the app does not have ` +
        `(app ${manifest.appVersion} made it): restore it with that version or a newer one.`,
    );
}
