import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../../config';
import { openDatabase } from '../../db/database';
import { requestBackup, socketPath } from './control-socket';
import { createBackup, describeBackup, type BackupResult } from './create-backup';
import { livePidIn } from './files';
import { BackupError } from './manifest';
import { restoreBackup, type RestoreTarget } from './restore';

const USAGE = `usage:
  npm run backup
  npm run restore -- <archive> [--force] [--data-dir DIR] [--database-url URL] [--verify]`;

/**
 * `npm run backup`: one archive of the configured database (DATABASE_URL, else the embedded one in
 * DATA_DIR/db) and DATA_DIR/uploads into BACKUP_DIR. On the embedded database a running app makes
 * it (asked through DATA_DIR/backup.sock); with no app running this command opens the database itself.
 */
async function backup(config: Config): Promise<BackupResult> {
  const common = { dataDir: config.dataDir, backupDir: config.backup.dir, keep: config.backup.keep };
  if (config.databaseUrl) return createBackup({ ...common, source: { kind: 'postgres', url: config.databaseUrl } });
  const asked = await requestBackup(config.dataDir);
  if (asked) return asked;
  const pgDir = path.join(config.dataDir, 'db');
  const pid = livePidIn(`${pgDir}.lock`);
  if (pid !== undefined)
    throw new BackupError(
      `The app (pid ${pid}) holds the embedded database in ${pgDir} but does not answer on ${socketPath(config.dataDir)}. ` +
        'Is it an older version, or started with its background work off? Restart it, or stop it and run this again.',
    );
  // Opening a folder without a database would create one: there is nothing to back up there.
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION')))
    throw new BackupError(`There is no embedded database in ${pgDir}: is DATA_DIR right (or DATABASE_URL missing)?`);
  const handle = await openDatabase({ kind: 'pglite', dataDir: pgDir });
  try {
    return await createBackup({ ...common, source: { kind: 'pglite', db: handle.db, pgDir } });
  } finally {
    await handle.close();
  }
}

async function restore(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      force: { type: 'boolean', default: false },
      verify: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new BackupError(USAGE);
  const dataDir = path.resolve(values['data-dir'] ?? config.dataDir);
  // A folder named on the command line means the embedded database, whatever DATABASE_URL says.
  const url = values['database-url'] ?? (values['data-dir'] ? undefined : config.databaseUrl);
  const target: RestoreTarget = url ? { kind: 'postgres', url, dataDir } : { kind: 'pglite', dataDir };
  const result = await restoreBackup({ archive: path.resolve(positionals[0]!), target, force: values.force, verifyOnly: values.verify });
  const { counts, uploads, createdAt, database } = result.manifest;
  const what = `${counts.users} users, ${counts.servers} servers, ${counts.votes} votes, ${uploads.files} uploaded files, ${counts.pendingJobs} pending jobs`;
  if (values.verify) console.log(`The archive is whole: a ${database.kind} backup from ${createdAt} (${what}).`);
  else {
    const where = target.kind === 'postgres' ? `the database ${new URL(target.url).pathname.slice(1)}` : path.join(dataDir, 'db');
    console.log(`Restored the backup from ${createdAt} into ${where} and ${path.join(dataDir, 'uploads')} (${what}).`);
    if (result.movedAside) console.log(`What was there before is in ${result.movedAside}; delete it once the restore is checked.`);
    console.log('Start the app: it migrates the schema if the archive is older than this version.');
  }
  for (const warning of result.warnings) console.warn(`Warning: ${warning}`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (command === 'backup' && rest.length === 0) {
    const result = await backup(config);
    console.log(`Backup written: ${describeBackup(result)}`);
    for (const key of result.manifest.uploads.missing)
      console.warn(`Warning: the image ${key} was deleted while the backup ran and is not in it`);
  } else if (command === 'restore') await restore(config, rest);
  else throw new BackupError(USAGE);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? (error instanceof BackupError ? error.message : `${error.name}: ${error.message}`) : error);
  process.exit(1);
});
