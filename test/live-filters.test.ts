import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serversRepository, type ListOptions } from '../src/server/modules/servers/servers.repository';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, uniqueName } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * "Online now", "has free slots" and a player range come from the game poller only: a server
 * never polled has no count and matches none of them. The search index and the SQL path (used
 * while the index loads) agree.
 */
describe('GET /api/servers live-state filters', () => {
  const tag = `live${uniqueName('')
    .replace(/[^a-z]/gi, '')
    .toLowerCase()
    .slice(0, 8)}`;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const make = async (name: string, online: boolean | null, currentPlayers: number, maxPlayers: number | null) => {
      const s = await createServer(t.app, owner.row.id, { name: `${tag} ${name}` });
      await t.app.ctx.db.updateTable('servers').set({ online, currentPlayers, maxPlayers }).where('id', '=', s.id).execute();
      ids[name] = s.id;
    };
    // Never polled, created first, with a count typed in some other way: still no count, so it
    // sorts after every polled server (even an offline one) and matches no live filter.
    await make('stale', null, 50, 64);
    await make('full', true, 64, 64);
    await make('busy', true, 40, 64);
    await make('quiet', true, 2, 32);
    await make('nolimit', true, 5, null);
    await make('offline', false, 0, 64);
    await make('never', null, 0, null);
  });

  const viaApi = async (query: string) => {
    const res = await t.app.inject({ url: `/api/servers?q=${tag}&sort=players&${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return { names: (res.json() as Array<{ name: string }>).map((s) => s.name.slice(tag.length + 1)), total: res.headers['x-total-count'] };
  };
  const viaSql = async (options: Partial<ListOptions>) => {
    const byId = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    const page = await serversRepository(t.app.ctx.db).list({ q: tag, sort: 'players', limit: 24, offset: 0, ...options }, new Date());
    return page.rows.map((r) => byId[r.id]);
  };

  const cases: Array<[string, Partial<ListOptions>, string[]]> = [
    ['', {}, ['full', 'busy', 'nolimit', 'quiet', 'offline', 'stale', 'never']],
    ['online=true', { online: true }, ['full', 'busy', 'nolimit', 'quiet']],
    ['online=1&freeSlots=1', { online: true, freeSlots: true }, ['busy', 'quiet']],
    ['freeSlots=true', { freeSlots: true }, ['busy', 'quiet']],
    ['minPlayers=5', { minPlayers: 5 }, ['full', 'busy', 'nolimit']],
    ['minPlayers=3&maxPlayers=40', { minPlayers: 3, maxPlayers: 40 }, ['busy', 'nolimit']],
    ['maxPlayers=0', { maxPlayers: 0 }, []],
    ['online=false', { online: false }, ['full', 'busy', 'nolimit', 'quiet', 'offline', 'stale', 'never']],
  ];

  it.each(cases)('?%s matches the same servers from the index and from SQL', async (query, options, expected) => {
    await t.app.ctx.discovery.searchIndex();
    const api = await viaApi(query);
    expect(api.names).toEqual(expected);
    expect(api.total).toBe(String(expected.length));
    expect(await viaSql(options)).toEqual(expected);
  });

  it('a server coming online through the poller shows up at once; going offline drops it', async () => {
    await t.app.ctx.db
      .updateTable('servers')
      .set({ online: true, currentPlayers: 7, maxPlayers: 10 })
      .where('id', '=', ids.never!)
      .execute();
    expect((await viaApi('online=true&minPlayers=7&maxPlayers=7')).names).toEqual(['never']);
    await t.app.ctx.db.updateTable('servers').set({ online: false, currentPlayers: 0 }).where('id', '=', ids.never!).execute();
    expect((await viaApi('online=true&minPlayers=7&maxPlayers=7')).names).toEqual([]);
    await t.app.ctx.db.updateTable('servers').set({ online: null, maxPlayers: null }).where('id', '=', ids.never!).execute();
  });

  it.each([
    ['online=yes', 'online must be true or false'],
    ['freeSlots=2', 'freeSlots must be true or false'],
    ['minPlayers=-1', 'minPlayers must be 0 or more'],
    ['maxPlayers=1.5', 'maxPlayers must be a whole number'],
    ['maxPlayers=lots', 'maxPlayers must be a number'],
    ['minPlayers=10&maxPlayers=5', 'minPlayers must not be more than maxPlayers'],
  ])('refuses ?%s with 400', async (query, message) => {
    const res = await t.app.inject({ url: `/api/servers?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
  });
});
