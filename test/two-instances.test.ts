import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/test-app';
import { createTwoInstances, type TwoInstances } from './helpers/two-instances';
import { createServer, createUser } from './helpers/factories';

/**
 * Two app instances on one database (and one Redis), as behind a load balancer: votes and joins
 * sent to either instance count exactly once, and the counters equal their rows afterwards.
 */
describe('two instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let instances: TwoInstances;
  beforeAll(async () => {
    instances = await createTwoInstances({ listCacheTtlMs: 0 });
    ({ a, b } = instances);
  });
  afterAll(() => instances.close());

  const act = (t: TestApp, serverId: number, action: 'join' | 'like' | 'dislike', headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/${action}`, headers });

  it('counts each player once whichever instance their requests reach, and counters equal rows', async () => {
    const owner = await createUser(a.app, { role: 'server_owner' });
    const server = await createServer(a.app, owner.row.id);
    const players = await Promise.all(Array.from({ length: 20 }, () => createUser(a.app)));

    // Every player sends the same like and join to both instances at once: one of each counts.
    const answers = await Promise.all(
      players.flatMap((p) => [
        act(a, server.id, 'like', p.headers),
        act(b, server.id, 'like', p.headers),
        act(a, server.id, 'join', p.headers),
        act(b, server.id, 'join', p.headers),
      ]),
    );
    expect(answers.filter((r) => r.statusCode >= 500)).toEqual([]);
    expect(answers.filter((r) => r.statusCode === 200).length).toBe(players.length * 2);

    const db = a.app.ctx.db;
    const row = await db.selectFrom('servers').select(['likes', 'totalJoins']).where('id', '=', server.id).executeTakeFirstOrThrow();
    const likes = await db.selectFrom('votes').select('id').where('serverId', '=', server.id).where('type', '=', 'like').execute();
    const joins = await db.selectFrom('joins').select('id').where('serverId', '=', server.id).execute();
    expect(likes).toHaveLength(players.length);
    expect(joins).toHaveLength(players.length);
    expect(row).toEqual({ likes: players.length, totalJoins: players.length });

    // Both instances answer the same counters for the server page.
    for (const t of [a, b]) {
      const page = (await t.app.inject({ url: `/api/servers/${server.id}` })).json() as { likes: number; totalJoins: number };
      expect(page).toMatchObject({ likes: players.length, totalJoins: players.length });
    }
  });
});
