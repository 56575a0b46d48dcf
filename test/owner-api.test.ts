import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';

describe('owner API', () => {
  let t: TestApp;
  let owner: TestUser;
  let serverId: number;
  let otherServerId: number;
  beforeAll(async () => {
    t = await createTestApp({ build: { ownerApiLimit: { max: 25, windowMs: 60_000 } } });
    owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id, { name: 'Keyed Kingdom' })).id;
    const rival = await createUser(t.app, { role: 'server_owner' });
    otherServerId = (await createServer(t.app, rival.row.id, { name: 'Other Kingdom' })).id;
  });
  afterAll(() => t?.close());

  const createKey = async (user: TestUser, id = serverId, name = 'Plugin') =>
    t.app.inject({ method: 'POST', url: `/api/servers/${id}/api-keys`, headers: user.headers, payload: { name } });
  const v1 = (path: string, key: string | undefined) =>
    t.app.inject({ url: `/api/v1${path}`, headers: key ? { authorization: `Bearer ${key}` } : {} });

  it('shows a new key once, lists it by prefix only, and only to the owner', async () => {
    const created = await createKey(owner);
    expect(created.statusCode).toBe(201);
    const { key, prefix, id } = created.json();
    expect(key).toMatch(/^rpk_[A-Za-z0-9]{10}_/);
    expect(key.startsWith(prefix)).toBe(true);
    const list = (await t.app.inject({ url: `/api/servers/${serverId}/api-keys`, headers: owner.headers })).json();
    expect(list).toEqual([expect.objectContaining({ id, name: 'Plugin', prefix })]);
    expect(JSON.stringify(list)).not.toContain(key);
    const stored = await t.app.ctx.db.selectFrom('apiKeys').select(['hash']).executeTakeFirstOrThrow();
    // The secret is everything after the prefix (base64url: it may itself hold '_').
    const secret = key.slice(prefix.length).replace(/^_/, '');
    expect(secret.length).toBeGreaterThanOrEqual(20);
    expect(stored.hash).not.toContain(secret);
    const stranger = await createUser(t.app, { role: 'server_owner' });
    expect((await createKey(stranger)).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/servers/${serverId}/api-keys`, headers: stranger.headers })).statusCode).toBe(403);
    expect((await createKey(owner, serverId, '')).statusCode).toBe(400);
  });

  it('answers the key’s server live, its votes since a time, and whether a player voted today', async () => {
    const { key } = (await createKey(owner)).json();
    const server = await v1('/server', key);
    expect(server.statusCode).toBe(200);
    expect(server.json()).toMatchObject({ id: String(serverId), name: 'Keyed Kingdom', monthVotes: 0 });

    const voters = [await createUser(t.app), await createUser(t.app), await createUser(t.app)];
    for (const [i, voter] of voters.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/servers/${serverId}/vote`,
        headers: voter.headers,
        payload: { playerName: `Miner${i}` },
      });
      expect(res.statusCode).toBe(200);
    }
    // Another server's votes never show through this key.
    await t.app.inject({
      method: 'POST',
      url: `/api/servers/${otherServerId}/vote`,
      headers: voters[0]!.headers,
      payload: { playerName: 'Elsewhere' },
    });
    const all = (await v1('/votes', key)).json();
    expect(all.map((v: { playerName: string }) => v.playerName)).toEqual(['Miner0', 'Miner1', 'Miner2']);
    const page = (await v1(`/votes?after=${all[0].id}&limit=1`, key)).json();
    expect(page.map((v: { playerName: string }) => v.playerName)).toEqual(['Miner1']);
    expect((await v1(`/votes?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, key)).json()).toEqual([]);
    expect((await v1('/votes?since=yesterday', key)).statusCode).toBe(400);
    // The year 0000 is ISO (1 BC) but no date the database holds: a 400, never a 500.
    for (const since of ['0000-01-01T00:00:00Z', '0000-06-15T12:00:00.5Z']) {
      const refused = await v1(`/votes?since=${since}`, key);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'since must be a date-time from the year 0001 on' });
    }
    expect((await v1('/votes?since=0001-01-01T00:00:00Z', key)).statusCode).toBe(200);

    expect((await v1('/votes/check?player=miner1', key)).json()).toMatchObject({ voted: true });
    expect((await v1(`/votes/check?player=${voters[2]!.row.username.toUpperCase()}`, key)).json()).toMatchObject({ voted: true });
    expect((await v1('/votes/check?player=Elsewhere', key)).json()).toEqual({ voted: false, votedAt: null, nextVoteAt: null });
    expect((await v1('/server', key)).json().monthVotes).toBe(3);
  });

  it('refuses missing, malformed, unknown and revoked keys, and counts requests per key', async () => {
    const { key, id } = (await createKey(owner)).json();
    expect((await v1('/server', undefined)).statusCode).toBe(401);
    expect((await v1('/server', 'rpk_nope')).statusCode).toBe(401);
    expect((await v1('/server', `${key.slice(0, -3)}xyz`)).statusCode).toBe(401);
    expect((await v1('/server', key)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/servers/${serverId}/api-keys/${id}`, headers: owner.headers })).statusCode,
    ).toBe(200);
    expect((await v1('/server', key)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/servers/${serverId}/api-keys/${id}`, headers: owner.headers })).statusCode,
    ).toBe(404);

    const busy = (await createKey(owner)).json().key;
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push((await v1('/server', busy)).statusCode);
    expect(answers.filter((s) => s === 200)).toHaveLength(25);
    expect(answers.at(-1)).toBe(429);
    // Another key has its own count.
    expect((await v1('/server', (await createKey(owner)).json().key)).statusCode).toBe(200);
  });

  it('keeps at most ten live keys per server', async () => {
    const keys = (await t.app.inject({ url: `/api/servers/${serverId}/api-keys`, headers: owner.headers })).json();
    for (let i = keys.length; i < 10; i++) expect((await createKey(owner)).statusCode).toBe(201);
    const refused = await createKey(owner);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('at most 10');
  });
});
