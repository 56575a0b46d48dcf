import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, insertPollSamples, proveGame, putGame, type TestUser } from './helpers/factories';
import { startFakeFiveM } from './helpers/fake-game-servers';

let clock = new Date('2026-11-22T12:00:00Z');
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

describe('a game poll round drops only what shows its servers', () => {
  let t: TestApp;
  let owner: TestUser;
  let fivem: Awaited<ReturnType<typeof startFakeFiveM>>;
  beforeAll(async () => {
    fivem = await startFakeFiveM({ players: 5, max: 64 });
    // Answers are cached for a minute, so only a dropped answer can show a new count.
    t = await createTestApp({
      build: {
        now: () => clock,
        listCacheTtlMs: 60_000,
        gamePoll: { allowTargets: [`127.0.0.1:${fivem.port}`], timeoutMs: 3000, intervalMs: 60_000, offlineAfter: 2 },
      },
    });
    owner = await createUser(t.app, { role: 'server_owner' });
  });
  afterAll(async () => {
    await t.close();
    await fivem.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  /**
   * A poll round, the views counted before it written first: the counter's timer writing them
   * during the round would lock the server's row, and a round skips a row another writer holds.
   */
  const pollRound = async () => {
    await t.app.ctx.discovery.flushCounts();
    return t.app.ctx.gameStatus.pollDue();
  };
  /** Asked twice: a list is kept from its second ask, a page's first anonymous view counts. */
  const held = async (url: string) => {
    await get(url);
    return get(url);
  };
  const playersIn = async (url: string, id: number) =>
    (await get(url)).json<Array<{ id: string; currentPlayers: number }>>().find((s) => s.id === String(id))?.currentPlayers;

  it('shows the new count at once on the polled server’s page and in lists by players, and keeps the rest', async () => {
    const polled = await createServer(t.app, owner.row.id, { name: `Polled ${Date.now()}` });
    const other = await createServer(t.app, owner.row.id, { name: `Unpolled ${Date.now()}` });
    const set = await putGame(t.app, polled.id, owner, { game: 'fivem', host: '127.0.0.1', port: fivem.port });
    expect(set.json()).toMatchObject({ online: true, currentPlayers: 5 });
    // Its owner proves control (the code in the host name), so the count is public from here on.
    await proveGame(t.app, polled.id, owner, (code) => fivem.set({ players: 5, max: 64, name: code }));

    const byPlayers = '/api/servers?sort=players&online=true&limit=50';
    const byName = `/api/servers?q=${encodeURIComponent(polled.name)}`;
    const otherSearch = `/api/servers?sort=new&q=${encodeURIComponent(other.name)}`;
    expect((await held(`/api/servers/${polled.id}`)).json().currentPlayers).toBe(5);
    expect((await held(byPlayers)).json()).toHaveLength(1);
    expect(await playersIn(byName, polled.id)).toBe(5);
    // A list filtered by players that does not show the server yet: only the round can bring it in.
    const busy = '/api/servers?minPlayers=20';
    expect((await held(busy)).json()).toEqual([]);
    const otherPage = await held(`/api/servers/${other.id}`);
    const otherList = await held(otherSearch);
    expect(otherList.json()).toHaveLength(1);
    // Written behind the app's back: it shows only where a cached answer was dropped.
    await t.app.ctx.db.updateTable('servers').set({ statusMessage: 'behind the cache' }).where('id', '=', other.id).execute();

    fivem.set({ players: 33, max: 64 });
    advance(61_000);
    expect(await pollRound()).toBe(1);

    expect((await get(`/api/servers/${polled.id}`)).json().currentPlayers).toBe(33);
    expect(await playersIn(byPlayers, polled.id)).toBe(33);
    expect(await playersIn(byName, polled.id)).toBe(33);
    expect(await playersIn(busy, polled.id)).toBe(33);
    expect((await get('/api/player-count')).json().count).toBe(33);
    // A poll round is not an edit: the other server's page and a list without the polled server stay as held.
    const otherPageAfter = await get(`/api/servers/${other.id}`);
    expect(otherPageAfter.headers.etag).toBe(otherPage.headers.etag);
    expect(otherPageAfter.json().statusMessage).not.toBe('behind the cache');
    expect((await get(otherSearch)).headers.etag).toBe(otherList.headers.etag);

    // A server gone quiet stays online until its second failure: the first moves only its page's
    // "last checked", and the lists that show it stay as held…
    const listBefore = await held(byName);
    fivem.set(null);
    advance(61_000);
    expect(await pollRound()).toBe(1);
    expect((await get(`/api/servers/${polled.id}`)).json()).toMatchObject({
      online: true,
      currentPlayers: 33,
      live: { checkedAt: clock.toISOString() },
    });
    expect((await get(byName)).headers.etag).toBe(listBefore.headers.etag);
    // …and the second takes it out of the online list at once.
    advance(130_000);
    expect(await pollRound()).toBe(1);
    expect((await get(`/api/servers/${polled.id}`)).json()).toMatchObject({ online: false, currentPlayers: 0 });
    expect(await playersIn(byPlayers, polled.id)).toBeUndefined();
  }, 30_000);

  it('holds a server’s history, shows each poll’s sample at once, and answers 404 once the server is hidden', async () => {
    const polled = await createServer(t.app, owner.row.id, { name: `History ${Date.now()}` });
    const other = await createServer(t.app, owner.row.id, { name: `Quiet ${Date.now()}` });
    fivem.set({ players: 7, max: 64 });
    await putGame(t.app, polled.id, owner, { game: 'fivem', host: '127.0.0.1', port: fivem.port });
    await proveGame(t.app, polled.id, owner, (code) => fivem.set({ players: 7, max: 64, name: code }));
    const history = (id: number, range = '24h') => get(`/api/servers/${id}/history?range=${range}`);
    const players = async (id: number, range?: string) =>
      (await history(id, range)).json<{ points: Array<{ players: number }> }>().points.map((p) => p.players);

    // Two asks: held from the second. A sample written behind the app's back shows only once dropped.
    await history(polled.id);
    const first = await history(polled.id);
    expect(first.json().points).toHaveLength(1);
    await history(other.id);
    const otherFirst = await history(other.id);
    expect(otherFirst.json()).toEqual({ range: '24h', points: [], average: 0, peak: 0, uptimePercent: null });
    await t.app.ctx.db
      .insertInto('playerCountSamples')
      .values({ serverId: other.id, sampledAt: clock, players: 3, online: true, samples: 1, onlineSamples: 1 })
      .execute();
    expect(await players(other.id)).toEqual([]);
    // The held answer's ETag: a client that holds it gets 304.
    const again = await get(`/api/servers/${polled.id}/history?range=24h`);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(
      (await t.app.inject({ url: `/api/servers/${polled.id}/history?range=24h`, headers: { 'if-none-match': first.headers.etag! } }))
        .statusCode,
    ).toBe(304);

    fivem.set({ players: 21, max: 64 });
    advance(61_000);
    // The first test's server is polled in the same rounds.
    expect(await pollRound()).toBeGreaterThanOrEqual(1);
    expect(await players(polled.id)).toEqual([7, 21]);
    expect(await players(polled.id, '7d')).toEqual([7, 21]);
    // The round did not poll the other server: its history stays as held.
    expect((await history(other.id)).headers.etag).toBe(otherFirst.headers.etag);

    // A round that only finds the server silent (no count shown yet) still wrote a sample.
    fivem.set(null);
    advance(61_000);
    expect(await pollRound()).toBeGreaterThanOrEqual(1);
    expect(await players(polled.id)).toEqual([7, 21, 0]);

    // Samples rolled up into hours show at once in the week held before.
    expect(await players(polled.id, '7d')).toEqual([7, 21, 0]);
    await insertPollSamples(t.app, polled.id, new Date(clock.getTime() - 3 * 86400_000), [10, 20, 30, 0]);
    expect(await players(polled.id, '7d')).toEqual([7, 21, 0]);
    await t.app.ctx.gameStatus.downsample();
    expect(await players(polled.id, '7d')).toEqual([15, 7, 21, 0]);

    // Reported and hidden by an admin: 404 at once, like its page, held answers or not.
    const [player, admin] = await Promise.all([createUser(t.app), createUser(t.app, { role: 'admin' })]);
    const post = (url: string, headers: Record<string, string>, payload: object) => t.app.inject({ method: 'POST', url, headers, payload });
    expect((await post('/api/reports', player.headers, { serverId: String(polled.id), reason: 'Fake counts' })).statusCode).toBe(201);
    const queue = (await t.app.inject({ url: '/api/admin/reports', headers: admin.headers })).json();
    const reportId = queue.find((r: { server: { id: string } }) => r.server.id === String(polled.id)).id;
    expect((await post(`/api/admin/reports/${reportId}/resolve`, admin.headers, { action: 'hide' })).statusCode).toBe(200);
    expect((await history(polled.id)).statusCode).toBe(404);
    expect((await history(polled.id, '7d')).statusCode).toBe(404);
    expect((await get(`/api/servers/${polled.id}`)).statusCode).toBe(404);
  }, 30_000);
  it('“Check now” drops what shows that server and nothing else, even when the count did not move', async () => {
    const checked = await createServer(t.app, owner.row.id, { name: `Checked ${Date.now()}` });
    const other = await createServer(t.app, owner.row.id, { name: `Bystander ${Date.now()}` });
    fivem.set({ players: 4, max: 64 });
    await putGame(t.app, checked.id, owner, { game: 'fivem', host: '127.0.0.1', port: fivem.port });
    await proveGame(t.app, checked.id, owner, (code) => fivem.set({ players: 4, max: 64, name: code }));
    const checkNow = () => t.app.inject({ method: 'POST', url: `/api/servers/${checked.id}/game/check`, headers: owner.headers });
    const historyUrl = `/api/servers/${checked.id}/history?range=24h`;
    const samples = async () => (await get(historyUrl)).json<{ points: unknown[] }>().points.length;

    const search = `/api/servers?q=${encodeURIComponent(checked.name)}`;
    await held(`/api/servers/${checked.id}`);
    await held(historyUrl);
    expect((await held(search)).json()[0].currentPlayers).toBe(4);
    const before = await samples();
    // Written behind the app's back: it shows only where a held answer was dropped.
    await held(`/api/servers/${other.id}`);
    await t.app.ctx.db.updateTable('servers').set({ statusMessage: 'behind the cache' }).where('id', '=', other.id).execute();

    // The game went quiet: the first failure shows no new count, only when it was checked and a sample.
    fivem.set(null);
    advance(61_000);
    expect((await checkNow()).statusCode).toBe(200);
    expect((await get(`/api/servers/${checked.id}`)).json()).toMatchObject({ online: true, live: { checkedAt: clock.toISOString() } });
    expect(await samples()).toBe(before + 1);

    // A new count shows at once, on its page and in a list that shows it; another server's page stays as held.
    fivem.set({ players: 12, max: 64 });
    advance(61_000);
    expect((await checkNow()).statusCode).toBe(200);
    expect((await get(`/api/servers/${checked.id}`)).json().currentPlayers).toBe(12);
    expect(await playersIn(search, checked.id)).toBe(12);
    expect((await get(`/api/servers/${other.id}`)).json().statusMessage).not.toBe('behind the cache');

    // Failed checks count on from the failures before them, as poll rounds do: the second in a row
    // turns the server offline (this app's rule: after 2), shown at once, and its next poll waits longer.
    fivem.set(null);
    advance(61_000);
    expect((await checkNow()).statusCode).toBe(200);
    expect((await get(`/api/servers/${checked.id}`)).json()).toMatchObject({ online: true, currentPlayers: 12 });
    advance(61_000);
    expect((await checkNow()).statusCode).toBe(200);
    expect((await get(`/api/servers/${checked.id}`)).json()).toMatchObject({ online: false, currentPlayers: 0 });
    expect(await playersIn(search, checked.id)).toBe(0);
    const row = await t.app.ctx.db
      .selectFrom('servers')
      .select(['pollFailures', 'nextPollAt'])
      .where('id', '=', checked.id)
      .executeTakeFirstOrThrow();
    expect(row.pollFailures).toBe(2);
    expect(row.nextPollAt!.getTime() - clock.getTime()).toBe(4 * 60_000);
  }, 30_000);
});
