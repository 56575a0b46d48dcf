import { afterAll, beforeAll } from 'vitest';
import type { BuildOptions } from '../../src/server/app';
import type { DatabaseHandle } from '../../src/server/db/database';
import { createTestApp, type TestApp } from './test-app';
import { createUser, type TestUser } from './factories';
import { openTestDatabase } from './test-db';
import { tallied, type Tally } from './statement-tally';

/** A test app whose statements are tallied, its database handle (untallied) and a server owner. */
export interface TalliedApp {
  handle: DatabaseHandle;
  tally: Tally;
  t: TestApp;
  owner: TestUser;
}

/**
 * Opens a test database and an app on it whose every statement is tallied (`tallied`), with a
 * server owner, before the file's tests; closes both after them. The fields are set once
 * `beforeAll` has run: read them inside tests and hooks, not at the file's top level.
 */
export function useTalliedApp(build: Omit<BuildOptions, 'database'> = {}): TalliedApp {
  const context = { tally: { statements: [], transactions: 0 } } as unknown as TalliedApp;
  beforeAll(async () => {
    context.handle = await openTestDatabase();
    context.t = await createTestApp({ build: { ...build, database: tallied(context.handle, context.tally) } });
    context.owner = await createUser(context.t.app, { role: 'server_owner' });
  });
  afterAll(async () => {
    await context.t?.close();
    await context.handle?.close();
  });
  return context;
}
