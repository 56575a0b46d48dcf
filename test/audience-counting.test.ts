import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { openTestDatabase } from './helpers/test-db';
import type { DatabaseHandle } from '../src/server/db/database';

/** Views of a server as stored: the counter, and the rows it must equal. */
async function storedViews(app: TestApp, serverId: number) {
  const { views } = await app.app.ctx.db.selectFrom('servers').select('views').where('id', '=', serverId).executeTakeFirstOrThrow();
  const rows = await app.app.ctx.db.selectFrom('serverViews').select('viewer').where('serverId', '=', serverId).execute();
  return { views, rows: rows.length };
}

describe('per-network hourly allowance of counted views and searches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ build: { counting: { viewsPerNetworkHour: 5, searchesPerNetworkHour: 4, flushMs: 0 } } });
  });
  afterAll(() => t.close());

  it('counts at most 5 views an hour from one network, still serving every page', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const servers = await Promise.all(Array.from({ length: 8 }, () => createServer(t.app, owner.row.id)));
    const player = await createUser(t.app);
    const statuses: number[] = [];
    for (const [i, server] of servers.entries()) {
      // Half of them logged in: an account does not bring a fresh allowance.
      const headers = i % 2 ? player.headers : {};
      statuses.push((await t.app.inject({ url: `/api/servers/${server.id}`, headers, remoteAddress: `192.0.2.${i + 1}` })).statusCode);
    }
    const other = await t.app.inject({ url: `/api/servers/${servers[7]!.id}`, remoteAddress: '198.51.100.1' });
    expect(statuses).toEqual(Array(8).fill(200));
    expect(other.json().views).toBe(1);
    await t.app.ctx.discovery.flushCounts();
    let counted = 0;
    for (const server of servers) counted += (await storedViews(t, server.id)).rows;
    expect(counted).toBe(5 + 1);
  });

  it('counts at most 4 filter searches an hour from one network', async () => {
    const before = (await t.app.ctx.db.selectFrom('searchLog').select('id').execute()).length;
    const search = (filters: string, remoteAddress: string) => t.app.inject({ url: `/api/servers?filters=${filters}`, remoteAddress });
    expect((await search('Whitelisted,English,Serious%20RP', '203.0.113.10')).statusCode).toBe(200);
    // Two more would pass the allowance: this search counts for neither.
    expect((await search('German,French', '203.0.113.11')).statusCode).toBe(200);
    await search('German', '203.0.113.12');
    await search('French', '203.0.113.13');
    await t.app.ctx.discovery.flushCounts();
    const added = (await t.app.ctx.db.selectFrom('searchLog').select('id').execute()).length - before;
    expect(added).toBe(4);
  });
});

describe('the database decides once per viewer per day', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('across two instances and a restart; queued counts are written at shutdown; a deleted server costs nothing else', async () => {
    const build = { database, counting: { flushMs: 0 } };
    const first = await createTestApp({ build });
    const second = await createTestApp({ build });
    const owner = await createUser(first.app, { role: 'server_owner' });
    const server = await createServer(first.app, owner.row.id);
    const doomed = await createServer(first.app, owner.row.id);
    const viewFrom = (app: TestApp, ip: string, id = server.id) =>
      app.app.inject({ url: `/api/servers/${id}`, remoteAddress: ip, headers: { 'user-agent': `Browser ${ip}` } });

    await viewFrom(first, '203.0.113.5');
    await viewFrom(second, '203.0.113.6');
    await viewFrom(second, '203.0.113.7', doomed.id);
    await first.app.inject({ url: '/api/servers?filters=English', remoteAddress: '203.0.113.5' });
    await second.app.inject({ url: '/api/servers?filters=English', remoteAddress: '203.0.113.9' });
    await first.app.ctx.db.deleteFrom('servers').where('id', '=', doomed.id).execute();
    await first.app.ctx.discovery.flushCounts();
    // Closing writes what the second instance still holds.
    await second.close();
    expect(await storedViews(first, server.id)).toEqual({ views: 1, rows: 1 });
    const searches = await first.app.ctx.db.selectFrom('searchLog').select(['viewer', 'filter']).execute();
    expect(searches).toEqual([{ viewer: 'n:203.0.113.0/24', filter: 'English' }]);

    // A restarted instance has forgotten everything in memory; the unique key still holds.
    const restarted = await createTestApp({ build });
    await viewFrom(restarted, '203.0.113.8');
    await restarted.app.ctx.discovery.flushCounts();
    expect(await storedViews(restarted, server.id)).toEqual({ views: 1, rows: 1 });
    await restarted.close();
    await first.close();
  });

  it('writes queued counts on its own within the flush interval', async () => {
    const app = await createTestApp({ build: { database, counting: { flushMs: 50 } } });
    try {
      const owner = await createUser(app.app, { role: 'server_owner' });
      const server = await createServer(app.app, owner.row.id);
      await app.app.inject({ url: `/api/servers/${server.id}`, remoteAddress: '203.0.113.77' });
      const until = Date.now() + 5000;
      while ((await storedViews(app, server.id)).views === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      expect(await storedViews(app, server.id)).toEqual({ views: 1, rows: 1 });
    } finally {
      await app.close();
    }
  });
});
