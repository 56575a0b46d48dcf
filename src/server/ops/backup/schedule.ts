import { newestArchiveTime } from './retention';

export interface ScheduleOptions {
  /** How long after the newest archive in `backupDir` the next backup is due. */
  everyMs: number;
  /** How often it is checked whether one is due. */
  checkMs: number;
  backupDir: string;
  /** Makes a backup; a failure is reported through `onError` and tried again an hour later (or `everyMs`, when shorter). */
  run: () => Promise<unknown>;
  onError: (error: unknown) => void;
  /** False while the app is closing. */
  running: () => boolean;
  now?: () => number;
}

/**
 * Scheduled backups, timed from the newest archive in BACKUP_DIR rather than from start-up: a
 * restart (a deploy every few hours) never postpones a backup, and a backup made by hand with
 * `npm run backup` counts as the latest one.
 */
export function scheduleBackups(options: ScheduleOptions): { stop(): void } {
  const now = options.now ?? Date.now;
  const retryMs = Math.min(options.everyMs, 3600_000);
  let busy = false;
  let failedAt = -Infinity;
  const check = () => {
    if (busy || !options.running() || now() - failedAt < retryMs) return;
    const newest = newestArchiveTime(options.backupDir);
    if (newest && now() - newest.getTime() < options.everyMs) return;
    busy = true;
    options
      .run()
      .catch((error: unknown) => {
        failedAt = now();
        options.onError(error);
      })
      .finally(() => (busy = false));
  };
  const timer = setInterval(check, options.checkMs);
  timer.unref();
  // The first check soon after start-up, not a whole interval later.
  const first = setTimeout(check, Math.min(options.checkMs, 5000));
  first.unref();
  return {
    stop: () => {
      clearInterval(timer);
      clearTimeout(first);
    },
  };
}
