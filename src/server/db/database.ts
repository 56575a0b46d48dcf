import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CamelCasePlugin, Kysely, sql } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { PostgresDialect } from 'kysely';
import type { Database } from './schema';
import { doneWithin } from '../lib/done-within';

/** Which engine a database runs on: both serve the same Kysely code path. */
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** True when this start created the embedded database (decides the default of SEED_DEMO). */
  created: boolean;
  /** The embedded engine itself, for dumps (tests copy a migrated database this way). */
  pglite?: PGlite;
  /** The PostgreSQL connection string, for clients with a pool of their own (the job queue). */
  url?: string;
  /**
   * Which database this is, to tell deployments apart (their Redis names): PostgreSQL's database
   * name, or a hash of the embedded data directory (a random id for one in memory).
   */
  name: string;
  /** The PostgreSQL pool's connection counts, read when metrics are scraped. */
  pool?: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
  close(): Promise<void>;
}

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** Longest wait for a connection, new or from a busy pool, before the request fails (503). */
      connectionTimeoutMs?: number;
      /** Longest a statement may run on the server; the client gives up a little later. */
      statementTimeoutMs?: number;
    }
  /** `dataDir` undefined: in memory. `loadFrom`: a dump made by `dumpDataDir` (tests start from a migrated copy). */
  | { kind: 'pglite'; dataDir?: string; loadFrom?: Blob };

/** A slow or unreachable database fails requests fast (503) instead of holding them forever. */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 2000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/** A hot query's text starts with this comment to be run as a named prepared statement on PostgreSQL. */
export const preparedMarker = (name: string) => `/* prepared:${name} */`;
const PREPARED = /^\/\* prepared:([\w-]{1,50}) \*\//;
const preparedName = (text: string) => PREPARED.exec(text)?.[1];

const INT8 = 20;
const DATE = 1082;
/** Counts and bigint ids as numbers, dates as 'YYYY-MM-DD' strings, on both drivers. */
const toNumber = (value: string) => Number(value);
const asIs = (value: string) => value;

function plugins() {
  return [new CamelCasePlugin()];
}

/**
 * Each engine's driver loads only when a database of its kind is opened: a process on PostgreSQL
 * never loads PGlite, an embedded one never loads pg (see docs/decisions/025-production-build.md).
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') {
    const { default: pg } = await import('pg');
    /**
     * A query whose text starts with a `prepared:<name>` comment (see PREPARED_MARKER) runs as a
     * named prepared statement: PostgreSQL plans it once per connection instead of on every call.
     * Only for hot queries whose text never changes (the parameters do).
     */
    class PreparingClient extends pg.Client {
      override query(...args: unknown[]): never {
        const [text, values] = args;
        const name = typeof text === 'string' ? preparedName(text) : undefined;
        const call = pg.Client.prototype.query as (...a: unknown[]) => never;
        return name ? call.call(this, { name, text, values }) : call.apply(this, args);
      }
    }
    const pool = new pg.Pool({
      Client: PreparingClient,
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
      // 0: no limit (migrations).
      statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      // The server's statement timeout cannot fire when the network to it is what hangs.
      query_timeout: options.statementTimeoutMs === 0 ? 0 : (options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS) + 2000,
      keepAlive: true,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8) return toNumber;
          if (oid === DATE) return asIs;
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    // A client that loses its connection emits 'error'; without a listener the process dies. The
    // pool listens on idle clients only, so every client gets one of its own for the time it is
    // checked out: the query in flight fails with the error and the pool drops the broken client.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: plugins() });
    const name = decodeURIComponent(new URL(options.url).pathname.slice(1)) || 'postgres';
    return { db, kind: 'postgres', created: false, url: options.url, name, pool, close: () => db.destroy() };
  }

  let created = true;
  let unlock = () => undefined as void;
  if (options.dataDir) {
    created = !fs.existsSync(path.join(options.dataDir, 'PG_VERSION'));
    fs.mkdirSync(options.dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  const [{ PGlite, types: pgliteTypes }, { pg_trgm }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('kysely-pglite-dialect'),
  ]);
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadFrom ? { loadDataDir: options.loadFrom } : {}),
    extensions: { pg_trgm },
    parsers: { [pgliteTypes.INT8]: toNumber, [DATE]: asIs },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), plugins: plugins() });
  const name = options.dataDir
    ? `embedded-${crypto.createHash('sha256').update(path.resolve(options.dataDir)).digest('hex').slice(0, 10)}`
    : `memory-${crypto.randomBytes(5).toString('hex')}`;
  return {
    db,
    kind: 'pglite',
    created: created && !options.loadFrom,
    pglite,
    name,
    close: async () => {
      await db.destroy();
      unlock();
    },
  };
}

/**
 * PGlite has no lock of its own: two processes on one data directory corrupt it. A pid file
 * refuses a second instance with a clear message and is taken over when its process is gone.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(fs.readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `Another process (pid ${pid}) is using the embedded database in ${dataDir}. ` +
            'Stop it first, or set DATABASE_URL to run several instances on PostgreSQL.',
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Answers whether the database takes queries within `timeoutMs` (used by GET /api/ready). */
export async function pingDatabase(db: Kysely<Database>, timeoutMs = 3000): Promise<boolean> {
  return doneWithin(
    sql`SELECT 1`.execute(db).then(() => true),
    timeoutMs,
  );
}
