import PgBoss from 'pg-boss';
import type { DatabaseHandle } from '../db/database';

export interface QueueOptions {
  /** A job whose worker died is failed and retried after this long. */
  expireInSeconds: number;
  /** How often expired jobs are looked for. */
  maintenanceIntervalSeconds: number;
  pollingIntervalSeconds: number;
  /** Wait before a failed job runs again. */
  retryDelaySeconds: number;
}

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = {
  expireInSeconds: 120,
  maintenanceIntervalSeconds: 30,
  pollingIntervalSeconds: 1,
  retryDelaySeconds: 5,
};

/**
 * The durable job queue (pg-boss) in the app's own database, on both engines: PostgreSQL over
 * its own small pool, the embedded PGlite through an adapter that takes the one connection from
 * Kysely first, so a job query never lands inside another request's transaction.
 */
export function createQueue(handle: DatabaseHandle, options: QueueOptions): PgBoss {
  const common = { schema: 'pgboss', maintenanceIntervalSeconds: options.maintenanceIntervalSeconds, monitorStateIntervalSeconds: 60 };
  if (handle.kind === 'postgres') {
    if (!handle.url) throw new Error('the job queue needs the PostgreSQL connection string');
    return new PgBoss({ connectionString: handle.url, max: 3, ...common });
  }
  const pglite = handle.pglite;
  if (!pglite) throw new Error('the embedded queue needs the PGlite engine');
  const db = {
    executeSql: (text: string, values?: unknown[]) =>
      handle.db.connection().execute(async () => {
        if (values && values.length > 0) return pglite.query(text, values);
        // Schema scripts hold several statements: exec runs them all and the last result answers.
        const results = await pglite.exec(text);
        return results.at(-1) ?? { rows: [] };
      }) as Promise<{ rows: never[] }>,
  };
  return new PgBoss({ db, ...common });
}

export type Queue = PgBoss;
