import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { serveBackupRequests } from './control-socket';
import { createBackup, describeBackup, type BackupResult, type BackupSource } from './create-backup';
import { livePidIn } from './files';
import { scheduleBackups } from './schedule';

export { createBackup, describeBackup, type BackupResult, type BackupSource } from './create-backup';

/** How often a running app looks whether a scheduled backup is due. */
const CHECK_MS = 5 * 60_000;

/**
 * The running app's part in backups: on the embedded database it answers `npm run backup`
 * through DATA_DIR/backup.sock (only it can read the database it holds open), and with
 * BACKUP_EVERY_HOURS it makes scheduled backups itself, on either database. One backup at a
 * time: a request while one is under way gets that one. Closing waits for it to finish.
 */
export async function startBackups(app: FastifyInstance, running: () => boolean): Promise<void> {
  const { config, db, dbKind } = app.ctx;
  const pgDir = path.join(config.dataDir, 'db');
  let source: BackupSource | undefined;
  if (dbKind === 'postgres' && config.databaseUrl) source = { kind: 'postgres', url: config.databaseUrl };
  // Only when this process holds DATA_DIR/db (an in-memory database, as in most tests, has nothing to back up).
  if (dbKind === 'pglite' && livePidIn(`${pgDir}.lock`) === process.pid) source = { kind: 'pglite', db, pgDir };
  if (!source) return;
  const from = source;

  let current: Promise<BackupResult> | undefined;
  const backup = () =>
    (current ??= createBackup({ source: from, dataDir: config.dataDir, backupDir: config.backup.dir, keep: config.backup.keep })
      .then((result) => {
        app.log.info(
          { archive: result.archive, bytes: result.bytes, removed: result.removed },
          `backup written: ${describeBackup(result)}`,
        );
        if (result.manifest.uploads.missing.length)
          app.log.warn({ missing: result.manifest.uploads.missing }, 'images deleted while the backup ran are not in it');
        return result;
      })
      .finally(() => (current = undefined)));

  let socket: Awaited<ReturnType<typeof serveBackupRequests>> | undefined;
  if (from.kind === 'pglite') {
    try {
      // The command prints the error; the app's log keeps it too.
      const asked = async () => {
        try {
          return await backup();
        } catch (err) {
          app.log.warn({ err }, 'backup asked by npm run backup failed');
          throw err;
        }
      };
      socket = await serveBackupRequests(config.dataDir, asked);
    } catch (err) {
      app.log.warn({ err }, 'npm run backup cannot reach this app: the backup socket did not open');
    }
  }
  const schedule = config.backup.everyHours
    ? scheduleBackups({
        everyMs: config.backup.everyHours * 3600_000,
        checkMs: CHECK_MS,
        backupDir: config.backup.dir,
        run: backup,
        onError: (err) => app.log.error({ err }, 'scheduled backup failed'),
        running,
      })
    : undefined;

  app.addHook('preClose', async () => {
    schedule?.stop();
    await socket?.close();
    await current?.catch(() => undefined);
  });
}
