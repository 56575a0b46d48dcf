import type { Kysely } from 'kysely';
import { pingDatabase } from '../../db/database';
import type { Database } from '../../db/schema';

/** The readiness probe's one question to the database. */
export function healthRepository(db: Kysely<Database>) {
  return {
    /** Whether the database answers a query within a few seconds. */
    ping: (): Promise<boolean> => pingDatabase(db),
  };
}

/** The readiness probe's query. */
export type HealthRepository = ReturnType<typeof healthRepository>;
