import fs from 'node:fs';
import path from 'node:path';
import { fileDigest, listFiles } from './files';
import { archiveName, BackupError, MANIFEST_FILE, manifestSchema, type Manifest } from './manifest';
import { runTool } from './run-tool';

/** Size and SHA-256 of every file under the staging folder, for the manifest. */
export async function digestAll(staging: string): Promise<Manifest['files']> {
  const files: Manifest['files'] = {};
  for (const rel of await listFiles(staging)) {
    if (rel !== MANIFEST_FILE) files[rel] = await fileDigest(path.join(staging, rel));
  }
  return files;
}

/**
 * Packs the staging folder into `dir` as one archive named after `at`, atomically: tar writes a
 * hidden `.partial` file, flushed to disk, which is then linked to its final name (a link never
 * replaces an archive of the same second: the next free `-N` name is taken) and unlinked. The
 * manifest is the first entry, so it can be read without going through the rest.
 */
export async function packArchive(staging: string, dir: string, at: Date, manifest: Manifest): Promise<string> {
  await fs.promises.writeFile(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  const partial = path.join(dir, `.${archiveName(at)}.${process.pid}.partial`);
  try {
    const entries = [MANIFEST_FILE, ...fs.readdirSync(staging).filter((e) => e !== MANIFEST_FILE && !e.startsWith('.'))];
    // Owner and group are left out: a restore on another machine or as another user owns its files.
    await runTool('tar', ['-cf', partial, '--numeric-owner', '--owner=0', '--group=0', '-C', staging, ...entries]);
    // The archive holds password hashes and e-mail addresses: readable by its owner only.
    await fs.promises.chmod(partial, 0o600);
    const handle = await fs.promises.open(partial, 'r');
    await handle.sync();
    await handle.close();
    for (let sequence = 0; sequence < 1000; sequence++) {
      const final = path.join(dir, archiveName(at, sequence));
      try {
        await fs.promises.link(partial, final);
        return final;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new BackupError(`No free archive name for ${archiveName(at)} in ${dir}`);
  } finally {
    await fs.promises.rm(partial, { force: true });
  }
}

/** Reads and checks the manifest alone (the archive's first entry), without unpacking the rest. */
export async function readManifest(archive: string): Promise<Manifest> {
  if (!fs.existsSync(archive)) throw new BackupError(`There is no archive at ${archive}.`);
  let text: string;
  try {
    text = await runTool('tar', ['-xOf', archive, MANIFEST_FILE]);
  } catch (error) {
    throw new BackupError(`${archive} is not a readable backup archive (${(error as Error).message}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BackupError(`${archive} is damaged: its manifest is not valid JSON.`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    const problem = result.error.issues[0];
    throw new BackupError(`${archive} is not a backup this version can read (${problem?.path.join('.')}: ${problem?.message}).`);
  }
  return result.data;
}

/**
 * Unpacks the archive into `into` (a new, private folder) and checks every file against the
 * manifest: a truncated or altered archive, or one with files the manifest does not list, is
 * refused here, before anything of the target is touched.
 */
export async function unpackArchive(archive: string, into: string, manifest: Manifest): Promise<void> {
  try {
    await runTool('tar', ['-xf', archive, '-C', into, '--no-same-owner', '--no-same-permissions']);
  } catch (error) {
    throw new BackupError(`${archive} is damaged: ${(error as Error).message}`);
  }
  const present = new Set((await listFiles(into)).filter((rel) => rel !== MANIFEST_FILE));
  const listed = Object.keys(manifest.files);
  const extra = [...present].filter((rel) => !Object.hasOwn(manifest.files, rel));
  const absent = listed.filter((rel) => !present.has(rel));
  if (extra.length || absent.length)
    throw new BackupError(
      `${archive} is damaged: ${[
        absent.length ? `missing ${absent.slice(0, 3).join(', ')}` : '',
        extra.length ? `unexpected ${extra.slice(0, 3).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ')}.`,
    );
  for (const rel of listed) {
    const want = manifest.files[rel]!;
    const got = await fileDigest(path.join(into, rel));
    if (got.bytes !== want.bytes || got.sha256 !== want.sha256)
      throw new BackupError(`${archive} is damaged: ${rel} does not match its checksum in the manifest.`);
  }
}
