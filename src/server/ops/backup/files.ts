import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every regular file under `root`, as paths relative to it with `/` separators (none when it is
 * absent). Listed synchronously: Node's recursive async listing is many times slower.
 */
export async function listFiles(root: string): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Whether a folder is absent or holds no file at any depth (empty sub-folders do not count). */
export async function holdsNoFile(dir: string): Promise<boolean> {
  return (await listFiles(dir)).length === 0;
}

/**
 * Adds to `into` each file of `from` it does not have yet: a hard link where both are on one
 * file system (instant, no space; a stored upload is never rewritten in place, so the link keeps
 * the bytes even after the app deletes the file), else a copy. Files that vanish while this runs
 * are skipped; half-written ones (`*.tmp`, renamed into place when complete) are never taken.
 */
export async function addMissingFiles(from: string, into: string): Promise<void> {
  for (const rel of await listFiles(from)) {
    if (rel.endsWith('.tmp')) continue;
    const target = path.join(into, rel);
    if (fs.existsSync(target)) continue;
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const source = path.join(from, rel);
    try {
      await fs.promises.link(source, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
      try {
        await fs.promises.copyFile(source, target, fs.constants.COPYFILE_FICLONE);
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code !== 'ENOENT') throw copyError;
      }
    }
  }
}

/**
 * Moves a file or folder; across file systems (an uploads folder on its own mount) it is copied
 * and then removed, since rename cannot cross them.
 */
export async function move(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.promises.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await fs.promises.cp(from, to, { recursive: true, errorOnExist: true, force: false });
    await fs.promises.rm(from, { recursive: true, force: true });
  }
}

/** Moves what is inside `from` into `into` (which may be a mount point that cannot itself be renamed). */
export async function moveContents(from: string, into: string): Promise<void> {
  await fs.promises.mkdir(into, { recursive: true });
  for (const name of await fs.promises.readdir(from)) await move(path.join(from, name), path.join(into, name));
}

/** SHA-256 (hex) and size of a file, streamed. */
export async function fileDigest(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Whether a process with this pid is alive (EPERM: alive, another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in a lock file (`DATA_DIR/db.lock`), when one is there and that process is alive. */
export function livePidIn(lockFile: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(lockFile, 'utf8'));
  } catch {
    return undefined;
  }
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}
