import fs from 'node:fs';
import path from 'node:path';

/** Left out of a copy: the running engine's own marker, meaningless to the next one. */
const NOT_COPIED = new Set(['postmaster.pid']);

/** Files read at once: shorter than one after the other, and the event loop stays free. */
const BATCH = 16;

/** A file read while the database ran, with what its stat said just before the read. */
interface ReadAhead {
  size: number;
  ctimeMs: number;
  data: Buffer;
}

export interface Ahead {
  startedAt: number;
  files: Map<string, ReadAhead>;
}

/**
 * The folders and files under `dir`, relative, parents before children; the engine's pid file left
 * out. Listed synchronously: a few milliseconds, where Node's recursive async listing took 0.4–1 s.
 */
export function treeOf(dir: string): { folders: string[]; files: string[] } {
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
  const rel = (e: fs.Dirent) => path.relative(dir, path.join(e.parentPath, e.name));
  return {
    folders: ['', ...entries.filter((e) => e.isDirectory()).map(rel)].sort(),
    files: entries.filter((e) => e.isFile() && !NOT_COPIED.has(e.name)).map(rel),
  };
}

async function inBatches<T>(items: T[], each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) await Promise.all(items.slice(i, i + BATCH).map(each));
}

/** First pass, while the database runs: every file read, its size and change time taken before. */
export async function readAhead(dir: string): Promise<Ahead> {
  const ahead: Ahead = { startedAt: Date.now(), files: new Map() };
  await inBatches(treeOf(dir).files, async (rel) => {
    try {
      const stat = await fs.promises.stat(path.join(dir, rel));
      ahead.files.set(rel, { size: stat.size, ctimeMs: stat.ctimeMs, data: await fs.promises.readFile(path.join(dir, rel)) });
    } catch (error) {
      // Removed meanwhile (a recycled WAL segment): the second pass decides what belongs.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  });
  return ahead;
}

/**
 * Second pass, with the database held still: the files as they are now, each taken from the first
 * pass when its size and change time are the same, else read again. A write lands in the change
 * time at the clock's tick (a few ms), so one in the same tick as the file's previous change
 * would not show: a file changed within a second before the first pass began is always read again.
 */
export async function settle(dir: string, ahead: Ahead): Promise<{ folders: string[]; files: Array<[string, Buffer]>; reread: number }> {
  const { folders, files } = treeOf(dir);
  const out: Array<[string, Buffer]> = [];
  const stale: string[] = [];
  for (const rel of files) {
    const stat = fs.statSync(path.join(dir, rel));
    const before = ahead.files.get(rel);
    const unchanged = before && before.size === stat.size && before.ctimeMs === stat.ctimeMs && before.ctimeMs < ahead.startedAt - 1000;
    if (unchanged) out.push([rel, before.data]);
    else stale.push(rel);
  }
  await inBatches(stale, async (rel) => {
    out.push([rel, await fs.promises.readFile(path.join(dir, rel))]);
  });
  return { folders, files: out, reread: stale.length };
}

/** Writes what `settle` answered into `into` (folders first: PostgreSQL needs its empty ones too). */
export async function writeTree(into: string, tree: { folders: string[]; files: Array<[string, Buffer]> }): Promise<void> {
  for (const rel of tree.folders) await fs.promises.mkdir(path.join(into, rel), { recursive: true });
  for (const [rel, data] of tree.files) await fs.promises.writeFile(path.join(into, rel), data);
}

/** Copies the tree on disk (a database too large to hold in memory), folders first. */
export async function copyTree(dir: string, into: string): Promise<void> {
  const { folders, files } = treeOf(dir);
  for (const rel of folders) await fs.promises.mkdir(path.join(into, rel), { recursive: true });
  await inBatches(files, (rel) => fs.promises.copyFile(path.join(dir, rel), path.join(into, rel), fs.constants.COPYFILE_FICLONE));
}
