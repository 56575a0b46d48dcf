import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from './files';
import { compareArchivesNewestFirst, parseArchiveName } from './manifest';

/** The archives in `dir` this tool named, newest first; any other file is not ours and not listed. */
export function listArchives(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((n) => parseArchiveName(n) && fs.statSync(path.join(dir, n)).isFile()).sort(compareArchivesNewestFirst);
}

/** When the newest archive in `dir` was made (from its name), or undefined when there is none. */
export function newestArchiveTime(dir: string): Date | undefined {
  const newest = listArchives(dir)[0];
  return newest ? parseArchiveName(newest)!.at : undefined;
}

/** Deletes all but the newest `keep` archives (0: keeps all); answers the names deleted. */
export function pruneArchives(dir: string, keep: number): string[] {
  if (keep <= 0) return [];
  const old = listArchives(dir).slice(keep);
  for (const name of old) fs.rmSync(path.join(dir, name), { force: true });
  return old;
}

/**
 * What a backup killed half-way left behind (a `.staging-<pid>-…` folder, a `….<pid>.partial`
 * file): removed once the process that made it is gone, never while it may still be working.
 */
export function removeLeftovers(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^\.staging-(\d+)-/.exec(name)?.[1] ?? /^\.rp-backup-.*\.(\d+)\.partial$/.exec(name)?.[1];
    if (pid && !isAlive(Number(pid))) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}
