import { z } from 'zod';
import pkg from '../../../../package.json' with { type: 'json' };

/** The app version written into every archive (package.json's). */
export const APP_VERSION: string = pkg.version;

/** What a backup counts in its database, so a restore can show (and check) it got the same rows. */
export const countsSchema = z.object({
  users: z.number().int().min(0),
  servers: z.number().int().min(0),
  votes: z.number().int().min(0),
  joins: z.number().int().min(0),
  media: z.number().int().min(0),
  /** pg-boss jobs not yet run (created or waiting for a retry). */
  pendingJobs: z.number().int().min(0),
});
export type Counts = z.infer<typeof countsSchema>;

const fileEntry = z.object({ bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** Paths inside an archive: relative, no `..`, no leading slash (a damaged or crafted manifest cannot point elsewhere). */
const archivePath = z.string().regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$))[\w./-]{1,500}$/, 'not a path inside the archive');

/** `manifest.json`, the archive's first entry: what it holds and how to check it. */
export const manifestSchema = z.object({
  format: z.literal('rp-servers-backup'),
  formatVersion: z.literal(1),
  appVersion: z.string(),
  /** ISO time (UTC) of the database snapshot. */
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    /** The dump inside the archive: PGlite's data directory as a .tar.gz, or a `pg_dump -Fc` file. */
    file: archivePath,
    /** The newest schema migration applied (null: none). */
    migration: z.string().nullable(),
    /** The database server's version (`SHOW server_version`). */
    serverVersion: z.string(),
    /** The tool that made the dump (`pg_dump (PostgreSQL) 15.20`), or `pglite`. */
    dumpTool: z.string(),
  }),
  counts: countsSchema,
  uploads: z.object({
    files: z.number().int().min(0),
    bytes: z.number().int().min(0),
    /** Stored images the database refers to that were not in the uploads folder (should be none). */
    missing: z.array(z.string()),
  }),
  /** Whether DATA_DIR/secrets.json existed: it is not in the archive (keep it with your secrets). */
  secretsFileAtSource: z.boolean(),
  /** Every file of the archive but the manifest, with its size and SHA-256. */
  files: z.record(archivePath, fileEntry),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const MANIFEST_FILE = 'manifest.json';
export const PGLITE_DUMP_FILE = 'database/pglite-data.tar.gz';
export const POSTGRES_DUMP_FILE = 'database/postgres.pgdump';
export const UPLOADS_FOLDER = 'uploads';

const NAME = /^rp-backup-(\d{8}T\d{6}Z)(?:-(\d{1,4}))?\.tar$/;

/** `rp-backup-20261203T101500Z.tar` (UTC, so names sort by time); `-2`… when that second is taken. */
export function archiveName(at: Date, sequence = 0): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `rp-backup-${stamp}${sequence > 0 ? `-${sequence}` : ''}.tar`;
}

/** The time and sequence an archive's name carries, or undefined for any file this tool did not name. */
export function parseArchiveName(name: string): { at: Date; sequence: number } | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const s = m[1]!;
  const at = new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`);
  return Number.isNaN(at.getTime()) ? undefined : { at, sequence: Number(m[2] ?? 0) };
}

/** Newest first: by the time in the name, then by its sequence. */
export function compareArchivesNewestFirst(a: string, b: string): number {
  const pa = parseArchiveName(a)!;
  const pb = parseArchiveName(b)!;
  return pb.at.getTime() - pa.at.getTime() || pb.sequence - pa.sequence;
}

/** A backup or restore that cannot go on, with the message the operator reads. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
