import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/server/db/database';
import { createTestApp, type TestApp } from './helpers/test-app';
import { openTestDatabase, testDatabaseKind } from './helpers/test-db';

/**
 * Holds the answer of the search index's first load (a page of `servers` in id order with the
 * index's 13 columns) until released: the app then runs as in the seconds a large database's
 * load takes. The held answer keeps its connection: PostgreSQL's pool has others, the embedded
 * database's one connection would hold every query (so this runs on PostgreSQL only).
 */
class HeldIndexLoad implements KyselyPlugin {
  private readonly held = new Set<unknown>();
  release!: () => void;
  private readonly gate = new Promise<void>((resolve) => {
    this.release = resolve;
  });

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (
      node.kind === 'SelectQueryNode' &&
      node.limit &&
      node.selections?.length === 13 &&
      JSON.stringify(node).includes('last_boosted_at')
    ) {
      this.held.add(queryId.queryId);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.held.delete(queryId.queryId)) await this.gate;
    return result;
  }
}

describe.runIf(testDatabaseKind === 'postgres')('readiness while the search index loads', () => {
  let handle: DatabaseHandle;
  let t: TestApp;
  const hold = new HeldIndexLoad();

  beforeAll(async () => {
    handle = await openTestDatabase();
    t = await createTestApp({ build: { database: { ...handle, db: handle.db.withPlugin(hold) } } });
  });
  afterAll(async () => {
    hold.release();
    await t?.close();
    await handle?.close();
  });

  it('says 503 on /api/ready until the index is in, lists meanwhile still answered; then 200', async () => {
    const discovery = t.app.ctx.discovery;
    const notYet = await t.app.inject({ url: '/api/ready' });
    expect(notYet.statusCode).toBe(503);
    expect(notYet.json()).toEqual({ status: 'unavailable' });
    expect(await discovery.whenListsLoaded(50)).toBe(false);
    // A request that comes anyway is answered (by SQL), not held.
    expect((await t.app.inject({ url: '/api/servers?sort=new' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);

    hold.release();
    expect(await discovery.whenListsLoaded(10_000)).toBe(true);
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });
});
