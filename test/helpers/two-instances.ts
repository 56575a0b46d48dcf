import type { DatabaseHandle } from '../../src/server/db/database';
import type { BuildOptions } from '../../src/server/app';
import { createTestApp, type TestApp } from './test-app';
import { openTestDatabase } from './test-db';

/** Two app instances on one database and one Redis, as behind a load balancer. */
export interface TwoInstances {
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}

/** Builds instances A and B on a fresh test database, both with `REDIS_URL` (TEST_REDIS_URL or the local one). */
export async function createTwoInstances(build: Omit<BuildOptions, 'database'> = {}): Promise<TwoInstances> {
  const database: DatabaseHandle = await openTestDatabase();
  const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
  const a = await createTestApp({ env, build: { ...build, database } });
  const b = await createTestApp({ env, build: { ...build, database } });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await database.close();
    },
  };
}
