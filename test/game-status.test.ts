import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, insertPollSamples, proveGame, putGame, type TestUser } from './helpers/factories';
import { startCanary, startFakeFiveM, startFakeMinecraft } from './helpers/fake-game-servers';
import { REFUSED_SPELLINGS, tableLookup } from './helpers/address-spellings';
import { GAMES } from '../src/shared/games';
import { MSG } from '../src/shared/messages';
import { queryPath } from '../src/server/adapters/game-query';

let clock = new Date('2026-11-22T12:00:00Z');
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

describe('setting a game address', () => {
  let t: TestApp;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  beforeAll(async () => {
    canary = await startCanary();
    // No allowed targets: what production runs with. Names resolve from a table, never the network.
    t = await createTestApp({
      build: { gamePoll: { timeoutMs: 1000, lookup: tableLookup({ 'mixed.example': ['8.8.8.8', '10.0.0.1'], localhost: ['1.1.1.1'] }) } },
    });
  });
  afterAll(async () => {
    await t.close();
    await canary.close();
  });

  it('refuses every spelling of a private target with a clear message, and nothing reaches a loopback canary', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const messages = [MSG.gameHostPrivate, MSG.gameHostInvalid, MSG.gameHostUnresolved];
    for (const host of [...REFUSED_SPELLINGS, 'mixed.example', 'nowhere.example']) {
      const res = await putGame(t.app, server.id, owner, { game: 'minecraft', host, port: canary.port });
      expect(res.statusCode, host).toBe(400);
      expect(messages, host).toContain(res.json().error);
    }
    expect(canary.hits()).toBe(0);
    const row = await t.app.ctx.db.selectFrom('servers').select(['gameHost']).where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(row.gameHost).toBeNull();
  });

  it('checks the game, the port and who asks', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const other = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const put = (user: TestUser, payload: object) => putGame(t.app, server.id, user, payload);
    expect((await put(owner, { game: 'tetris', host: 'example.com', port: 1 })).json()).toMatchObject({ error: 'Choose a supported game' });
    expect((await put(owner, { game: 'fivem', host: 'example.com', port: 70000 })).json()).toMatchObject({
      error: 'Port must be a whole number from 1 to 65535',
    });
    expect((await put(owner, { game: 'fivem', host: ' ', port: 30120 })).json()).toMatchObject({ error: 'Enter the server address' });
    expect((await put(other, { game: 'fivem', host: 'example.com', port: 30120 })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/servers/${server.id}/game`, headers: other.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/servers/${server.id}/game`, headers: owner.headers })).json()).toMatchObject({
      game: null,
      host: null,
      online: null,
    });
    // A count the poller once wrote goes with the game: a disconnected server shows none.
    await t.app.ctx.db
      .updateTable('servers')
      .set({ currentPlayers: 12, online: true, playerNames: ['Ann'] })
      .where('id', '=', server.id)
      .execute();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/servers/${server.id}/game`, headers: owner.headers })).statusCode).toBe(204);
    expect(
      await t.app.ctx.db
        .selectFrom('servers')
        .select(['currentPlayers', 'online', 'playerNames'])
        .where('id', '=', server.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ currentPlayers: 0, online: null, playerNames: null });
    expect((await t.app.inject({ url: '/api/games' })).json().map((g: { id: string }) => g.id)).toEqual(
      expect.arrayContaining(['fivem', 'redm', 'minecraft', 'minecraft-bedrock', 'garrysmod']),
    );
  });
});

describe('polling real game protocols (fake servers on loopback, allowed for tests only)', () => {
  let t: TestApp;
  let owner: TestUser;
  let mc: Awaited<ReturnType<typeof startFakeMinecraft>>;
  let fivem: Awaited<ReturnType<typeof startFakeFiveM>>;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  beforeAll(async () => {
    mc = await startFakeMinecraft({ players: 42, max: 100 });
    fivem = await startFakeFiveM({ players: 12, max: 48 });
    canary = await startCanary();
    // Exactly the fake servers' ip:port are let through; the canary's is not.
    t = await createTestApp({
      build: {
        now: () => clock,
        gamePoll: {
          allowTargets: [`127.0.0.1:${mc.port}`, `127.0.0.1:${fivem.port}`],
          lookup: tableLookup({ 'fivem.example': ['127.0.0.1'] }),
          timeoutMs: 3000,
          intervalMs: 60_000,
          offlineAfter: 2,
        },
      },
    });
    owner = await createUser(t.app, { role: 'server_owner' });
  });
  afterAll(async () => {
    await t.close();
    await mc.close();
    await fivem.close();
    await canary.close();
  });

  it('removes an address only from its own listing, and drops no cache when there was none to remove', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const other = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const heard: string[] = [];
    t.app.ctx.discovery.onChange((change) => heard.push(change.kind));
    const remove = (user: TestUser) => t.app.inject({ method: 'DELETE', url: `/api/servers/${server.id}/game`, headers: user.headers });
    expect((await remove(other)).statusCode).toBe(403);
    expect((await remove(owner)).statusCode).toBe(204);
    expect((await remove(owner)).statusCode).toBe(204);
    // Nothing was shown, nothing changed: the site's cached lists and pages stay.
    expect(heard).toEqual([]);
  });

  it('limits removals of an address like its other changes', async () => {
    const tight = await createTestApp({ build: { rateLimits: { uploadsPerUser: { max: 2, windowMs: 60_000 } } } });
    try {
      const owner = await createUser(tight.app, { role: 'server_owner' });
      const stranger = await createUser(tight.app, { role: 'server_owner' });
      const server = await createServer(tight.app, owner.row.id);
      const remove = (user: TestUser) =>
        tight.app.inject({ method: 'DELETE', url: `/api/servers/${server.id}/game`, headers: user.headers });
      const codes = async (user: TestUser) => [
        (await remove(user)).statusCode,
        (await remove(user)).statusCode,
        (await remove(user)).statusCode,
      ];
      // Someone else's listing is refused before any limit counts.
      expect(await codes(stranger)).toEqual([403, 403, 403]);
      expect(await codes(owner)).toEqual([204, 204, 429]);
    } finally {
      await tight.close();
    }
  });

  it('shows the first answer at once, then polls: history, average, peak and uptime come out right', async () => {
    const server = await createServer(t.app, owner.row.id);
    const set = await putGame(t.app, server.id, owner, { game: 'fivem', host: '127.0.0.1', port: fivem.port });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ game: 'fivem', online: true, currentPlayers: 12, maxPlayers: 48, error: null });
    expect(set.json().claim).toMatchObject({ status: 'pending', found: false });
    let code = '';
    const proved = await proveGame(t.app, server.id, owner, (c) => {
      code = c;
      fivem.set({ players: 12, max: 48, name: `RP ${c}` });
    });
    expect(proved.json().claim).toMatchObject({ status: 'verified', found: true });

    for (const players of [20, 30]) {
      // The code may come out once proven: the address stays verified.
      fivem.set({ players, max: 48, name: players === 20 ? `RP ${code}` : 'RP' });
      advance(61_000);
      expect(await t.app.ctx.gameStatus.pollDue()).toBeGreaterThanOrEqual(1);
    }
    const detail = (await t.app.inject({ url: `/api/servers/${server.id}` })).json();
    expect(detail).toMatchObject({ currentPlayers: 30, maxPlayers: 48, online: true });
    expect((await t.app.inject({ url: '/api/player-count' })).json().count).toBeGreaterThanOrEqual(30);

    // It stops answering: first failure keeps it online, the backoff rule turns it offline after the second.
    fivem.set(null);
    advance(61_000);
    await t.app.ctx.gameStatus.pollDue();
    expect((await t.app.inject({ url: `/api/servers/${server.id}` })).json().online).toBe(true);
    advance(61_000);
    expect(await t.app.ctx.gameStatus.pollDue()).toBe(0); // backed off: not due yet
    advance(120_000);
    await t.app.ctx.gameStatus.pollDue();
    const offline = (await t.app.inject({ url: `/api/servers/${server.id}` })).json();
    expect(offline).toMatchObject({ online: false, currentPlayers: 0 });

    const history = (await t.app.inject({ url: `/api/servers/${server.id}/history?range=24h` })).json();
    expect(history.points.map((p: { players: number }) => p.players)).toEqual([12, 20, 30, 0, 0]);
    expect(history).toMatchObject({ average: 12.4, peak: 30, uptimePercent: 60 });
    expect((await t.app.inject({ url: `/api/servers/${server.id}/history?range=1y` })).statusCode).toBe(400);
  }, 60_000);

  it('reads Minecraft server-list ping over TCP', async () => {
    const server = await createServer(t.app, owner.row.id);
    const set = await putGame(t.app, server.id, owner, { game: 'minecraft', host: '127.0.0.1', port: mc.port });
    expect(set.json()).toMatchObject({ online: true, currentPlayers: 42, maxPlayers: 100 });
    expect(set.json().claim.seen).toEqual([{ field: 'MOTD', text: 'Fake MC' }]);
  }, 30_000);

  it('asks FiveM over HTTP itself: a name resolved once, and older servers without /dynamic.json', async () => {
    const server = await createServer(t.app, owner.row.id);
    const put = (host: string) => putGame(t.app, server.id, owner, { game: 'redm', host, port: fivem.port });
    fivem.set({ players: 7, max: 32 });
    expect((await put('fivem.example')).json()).toMatchObject({ online: true, currentPlayers: 7, maxPlayers: 32 });
    fivem.behave('legacy');
    fivem.requests.length = 0;
    expect((await put('127.0.0.1')).json()).toMatchObject({ online: true, currentPlayers: 7, maxPlayers: 32 });
    expect(fivem.requests).toEqual(['/dynamic.json', '/info.json', '/players.json']);
    fivem.behave('normal');
    fivem.set({ players: 12, max: 48 });
  }, 30_000);

  it('keeps what the game says (map, version, player names) cleaned, and hides the names when the owner asks', async () => {
    const server = await createServer(t.app, owner.row.id);
    const hostile = 'Evil\u202Egnp.exe\u0000\n' + 'x'.repeat(100);
    fivem.set({ players: 3, max: 32, map: 'Los Santos\u0007', names: ['Niko', hostile, ''] });
    const put = (showPlayerNames?: boolean) =>
      putGame(t.app, server.id, owner, {
        game: 'fivem',
        host: '127.0.0.1',
        port: fivem.port,
        ...(showPlayerNames === undefined ? {} : { showPlayerNames }),
      });
    expect((await put()).json()).toMatchObject({ online: true, currentPlayers: 3, showPlayerNames: true });
    await proveGame(t.app, server.id, owner, (code) =>
      fivem.set({ players: 3, max: 32, map: 'Los Santos\u0007', names: ['Niko', hostile, ''], projectName: code }),
    );
    const live = (await t.app.inject({ url: `/api/servers/${server.id}` })).json().live;
    expect(live).toMatchObject({ map: 'Los Santos', version: 'FXServer-master v1.0.0.7290 linux' });
    expect(live.players[0]).toBe('Niko');
    expect(live.players[1]).toMatch(/^Evil gnp\.exe x+$/);
    expect([...live.players[1]].length).toBeLessThanOrEqual(32);
    expect(live.players).toHaveLength(2);
    const polled = await t.app.ctx.db.selectFrom('servers').select('lastPolledAt').where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(live.checkedAt).toBe(polled.lastPolledAt!.toISOString());
    expect((await put(false)).json().showPlayerNames).toBe(false);
    expect((await t.app.inject({ url: `/api/servers/${server.id}` })).json().live.players).toBeNull();
    fivem.set({ players: 12, max: 48 });
  }, 30_000);

  it('follows no redirect from a game server, and gives up on slow or oversized answers', async () => {
    const server = await createServer(t.app, owner.row.id);
    const put = () => putGame(t.app, server.id, owner, { game: 'fivem', host: '127.0.0.1', port: fivem.port });
    for (const mode of [
      { redirect: `http://127.0.0.1:${canary.port}/info.json`, status: 302 },
      { redirect: `http://localhost:${canary.port}/`, status: 307 },
      { redirect: 'http://169.254.169.254/latest/meta-data/', status: 301 },
      { huge: 5 * 1024 * 1024 },
      { huge: 5 * 1024 * 1024, chunked: true },
      'silent' as const,
      'drip' as const,
    ]) {
      fivem.behave(mode);
      const started = Date.now();
      const res = await put();
      expect(res.statusCode, JSON.stringify(mode)).toBe(200);
      expect(res.json(), JSON.stringify(mode)).toMatchObject({ online: null, currentPlayers: 0, error: MSG.gameUnreachable });
      // One deadline (3 s here) covers the whole query.
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect(canary.hits()).toBe(0);
    fivem.behave('normal');
  }, 60_000);

  it('hands gamedig only games it asks over UDP/TCP at the checked address', () => {
    const paths = Object.fromEntries(GAMES.map((g) => [g.id, queryPath(g.gamedig)]));
    expect(paths).toMatchObject({ fivem: 'http', redm: 'http', minecraft: 'socket', garrysmod: 'socket' });
    expect(Object.values(paths)).not.toContain(undefined);
    // A protocol not checked (gamedig's HTTP-based ones) has no path at all.
    expect(queryPath('beammp')).toBeUndefined();
    expect(queryPath('no-such-game')).toBeUndefined();
  });

  it('stores hostile answers safely or refuses them', async () => {
    const server = await createServer(t.app, owner.row.id);
    fivem.set({ players: 5, max: 10, name: '<script>alert(1)</script>' });
    const html = await putGame(t.app, server.id, owner, { game: 'fivem', host: '127.0.0.1', port: fivem.port });
    expect(html.json()).toMatchObject({ online: true, currentPlayers: 5 });
    expect(html.json().claim.seen[0].text).toBe('<script>alert(1)</script>');
    await proveGame(t.app, server.id, owner, (code) => fivem.set({ players: 5, max: 10, projectDesc: code }));
    expect((await t.app.inject({ url: `/api/servers/${server.id}` })).json().name).not.toContain('<script>');
    for (const bad of [
      { players: -5, max: 10 },
      { players: 999_999_999, max: 10 },
      { players: 'lots', max: 10 },
    ]) {
      fivem.set(bad);
      advance(61_000);
      await t.app.ctx.gameStatus.pollDue();
      const row = await t.app.ctx.db
        .selectFrom('servers')
        .select(['currentPlayers', 'pollError'])
        .where('id', '=', server.id)
        .executeTakeFirstOrThrow();
      // Refused: the last good count stays, until the backoff rule turns the server offline (0).
      expect([5, 0], JSON.stringify(bad)).toContain(row.currentPlayers);
      expect(row.pollError).toBe('The server did not answer the status query.');
    }
    fivem.set({ players: 12, max: 48 });
  }, 60_000);

  it('downsamples old samples so storage stays bounded, keeping averages and uptime', async () => {
    const server = await createServer(t.app, owner.row.id);
    await insertPollSamples(t.app, server.id, new Date(clock.getTime() - 3 * 86400_000), [10, 20, 30, 0]);
    await t.app.ctx.gameStatus.downsample();
    const rows = await t.app.ctx.db.selectFrom('playerCountSamples').selectAll().where('serverId', '=', server.id).execute();
    expect(rows).toEqual([expect.objectContaining({ resolution: 'hour', players: 15, samples: 4, onlineSamples: 3 })]);
    const week = (await t.app.inject({ url: `/api/servers/${server.id}/history?range=7d` })).json();
    expect(week).toMatchObject({ peak: 15, uptimePercent: 75 });
  });

  it('lets one instance poll a server per round when several run', async () => {
    const server = await createServer(t.app, owner.row.id);
    await t.app.ctx.db
      .updateTable('servers')
      .set({ game: 'fivem', gameHost: '127.0.0.1', gamePort: fivem.port, nextPollAt: clock })
      .where('id', '=', server.id)
      .execute();
    const [a, b] = await Promise.all([t.app.ctx.gameStatus.pollDue(), t.app.ctx.gameStatus.pollDue()]);
    const samples = await t.app.ctx.db.selectFrom('playerCountSamples').select('sampledAt').where('serverId', '=', server.id).execute();
    expect(samples).toHaveLength(1);
    expect(a + b).toBeGreaterThanOrEqual(1);
  }, 30_000);
});
