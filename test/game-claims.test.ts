import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sourceRenderer from '../src/web/ssr/render';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, proveGame, putGame, type TestUser } from './helpers/factories';
import { startFakeFiveM, startFakeMinecraft, startFakeSource, type Answer } from './helpers/fake-game-servers';
import { startSmtpServer } from './helpers/smtp';
import { APP_INDEX_HTML, tempWebDist } from './helpers/web-dist';

let clock = new Date('2026-12-01T12:00:00Z');
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

type Fake = { port: number; set(next: Answer | null): void; close(): Promise<void> };
type Game = 'fivem' | 'minecraft' | 'garrysmod';

/** Real game servers of our own on loopback, each reachable by the app through the test allow-list. */
const fakes: Fake[] = [];
const allowed: string[] = [];
async function spawn(game: Game, answer: Answer): Promise<Fake> {
  const fake =
    game === 'fivem'
      ? await startFakeFiveM(answer)
      : game === 'minecraft'
        ? await startFakeMinecraft(answer)
        : await startFakeSource(answer);
  fakes.push(fake);
  allowed.push(`127.0.0.1:${fake.port}`);
  return fake;
}

describe('owners prove they run the game server they list', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let dist: ReturnType<typeof tempWebDist>;
  let admin: TestUser;
  // Started before the app, which is given exactly their addresses.
  const pool: Record<string, Fake> = {};
  const dns: Record<string, string[]> = { 'play.borrowed.example': ['127.0.0.1'] };
  /** Lookups of a name wait here while set: a poll held mid-way, as a slow game server or DNS holds it. */
  const held: Record<string, { entered: () => void; gate: Promise<void> }> = {};
  let elsewhere: Fake;

  beforeAll(async () => {
    for (let i = 0; i < 9; i++) pool[`fivem${i}`] = await spawn('fivem', { players: 12, max: 48 });
    for (let i = 0; i < 3; i++) pool[`mc${i}`] = await spawn('minecraft', { players: 42, max: 100 });
    for (let i = 0; i < 3; i++) pool[`source${i}`] = await spawn('garrysmod', { players: 9, max: 64 });
    // Another machine (127.0.0.2) on the same port as mc0: what a name can be re-pointed to.
    elsewhere = await startFakeMinecraft({ players: 1, max: 10 }, pool.mc0!.port, '127.0.0.2');
    fakes.push(elsewhere);
    allowed.push(`127.0.0.2:${pool.mc0!.port}`);
    smtp = await startSmtpServer();
    dist = tempWebDist({ 'index.html': APP_INDEX_HTML });
    t = await createTestApp({
      env: { SMTP_URL: smtp.url },
      build: {
        now: () => clock,
        listCacheTtlMs: 0,
        webDist: dist.dir,
        pageRenderer: sourceRenderer,
        gamePoll: {
          allowTargets: allowed,
          // A name can be pointed elsewhere mid-test, as its owner's DNS could.
          lookup: async (name) => {
            const hold = held[name];
            if (hold) {
              hold.entered();
              await hold.gate;
            }
            return (dns[name] ?? []).map((address) => ({ address }));
          },
          timeoutMs: 3000,
          intervalMs: 60_000,
          offlineAfter: 2,
        },
      },
    });
    admin = await createUser(t.app, { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(fakes.map((f) => f.close()));
    await smtp.close();
    dist.remove();
  });

  const owner = () => createUser(t.app, { role: 'server_owner' });
  const listing = async (user: TestUser, name?: string) => (await createServer(t.app, user.row.id, name ? { name } : {})).id;
  const status = async (id: number, user: TestUser) =>
    (await t.app.inject({ url: `/api/servers/${id}/game`, headers: user.headers })).json();
  const check = (id: number, user: TestUser) =>
    t.app.inject({ method: 'POST', url: `/api/servers/${id}/game/check`, headers: user.headers });
  const detail = async (id: number) => (await t.app.inject({ url: `/api/servers/${id}` })).json();
  const connect = (id: number, user: TestUser, game: Game, fake: Fake, host = '127.0.0.1') =>
    putGame(t.app, id, user, { game, host, port: fake.port });

  it("verifies an address when the code is in the game's own field: MOTD, host name, project name or description, Source server name", async () => {
    const cases: Array<{ game: Game; fake: Fake; answer: (code: string) => Answer; field: string }> = [
      { game: 'minecraft', fake: pool.mc0!, answer: (c) => ({ players: 42, max: 100, name: `§aWelcome! ${c}` }), field: 'MOTD' },
      {
        game: 'fivem',
        fake: pool.fivem0!,
        answer: (c) => ({ players: 12, max: 48, name: `^1Los Santos RP ^7| ${c}` }),
        field: 'Host name',
      },
      {
        game: 'fivem',
        fake: pool.fivem1!,
        answer: (c) => ({ players: 12, max: 48, projectName: `Project ${c.toLowerCase()}` }),
        field: 'sv_projectName',
      },
      {
        game: 'fivem',
        fake: pool.fivem2!,
        answer: (c) => ({ players: 12, max: 48, projectDesc: `Serious RP. ${c}` }),
        field: 'sv_projectDesc',
      },
      { game: 'garrysmod', fake: pool.source0!, answer: (c) => ({ players: 9, max: 64, name: `DarkRP ${c}` }), field: 'Server name' },
    ];
    for (const { game, fake, answer, field } of cases) {
      const user = await owner();
      const id = await listing(user);
      const set = await connect(id, user, game, fake);
      expect(set.statusCode, game).toBe(200);
      const code = set.json().claim.code as string;
      expect(code).toMatch(/^rps-[A-Z2-9]{5}$/);
      expect(set.json()).toMatchObject({ online: true, claim: { status: 'pending', found: false } });
      expect(await detail(id), game).toMatchObject({ online: null, currentPlayers: 0, connect: null });

      fake.set(answer(code));
      const checked = await check(id, user);
      expect(checked.statusCode).toBe(200);
      const view = checked.json();
      expect(view.claim, `${game} ${field}`).toMatchObject({ status: 'verified', found: true });
      // The owner sees exactly what the game answered, colour codes out.
      expect(view.claim.seen.find((s: { field: string }) => s.field.startsWith(field))?.text.toUpperCase(), field).toContain(
        code.toUpperCase(),
      );
      expect(view.claim.seen.map((s: { text: string }) => s.text).join(' ')).not.toMatch(/§|\^\d/);
      const shown = await detail(id);
      expect(shown.online, game).toBe(true);
      expect(shown.currentPlayers, game).toBe(answer(code).players);
      expect(shown.connect.address, game).toContain('127.0.0.1');
    }
  }, 90_000);

  it('does not verify with the code elsewhere (a player, the map), a wrong code, or an offline server', async () => {
    const user = await owner();
    const tries: Array<{ game: Game; fake: Fake; answer: (code: string) => Answer | null }> = [
      { game: 'minecraft', fake: pool.mc1!, answer: (c) => ({ players: 2, max: 20, name: 'A server', names: [c, 'Steve'] }) },
      { game: 'minecraft', fake: pool.mc1!, answer: () => ({ players: 2, max: 20, name: 'rps-AAAAA' }) },
      { game: 'fivem', fake: pool.fivem3!, answer: (c) => ({ players: 2, max: 20, names: [c, 'Niko'] }) },
      { game: 'fivem', fake: pool.fivem3!, answer: (c) => ({ players: 2, max: 20, map: c }) },
      { game: 'fivem', fake: pool.fivem3!, answer: () => null },
      { game: 'garrysmod', fake: pool.source1!, answer: (c) => ({ players: 2, max: 20, map: c, names: ['a', 'b'] }) },
      { game: 'garrysmod', fake: pool.source1!, answer: (c) => ({ players: 2, max: 20, names: [c, 'b'] }) },
      { game: 'garrysmod', fake: pool.source1!, answer: () => null },
    ];
    for (const [i, { game, fake, answer }] of tries.entries()) {
      const id = await listing(user);
      fake.set({ players: 1, max: 20 });
      const code = (await connect(id, user, game, fake)).json().claim.code as string;
      fake.set(answer(code));
      const view = (await check(id, user)).json();
      expect(view.claim.status, `try ${i}`).toBe('pending');
      expect(view.claim.found, `try ${i}`).toBe(false);
      if (answer(code) === null) expect(view.online, `try ${i}`).not.toBe(true);
      expect(await detail(id), `try ${i}`).toMatchObject({ online: null, currentPlayers: 0, connect: null, live: null });
    }
  }, 90_000);

  it('shows nothing borrowed from an unverified address on any public route, while a verified one shows it there', async () => {
    const fake = pool.fivem4!;
    fake.set({ players: 437, max: 512, name: 'Borrowed RP', map: 'Los Santos' });
    const real = await owner();
    const realId = await listing(real, 'Original Roleplay');
    await connect(realId, real, 'fivem', fake);
    await proveGame(t.app, realId, real, (code) => fake.set({ players: 437, max: 512, name: `Borrowed RP ${code}`, map: 'Los Santos' }));
    const impostor = await owner();
    const fakeId = await listing(impostor, 'Impostor Roleplay');
    const set = await connect(fakeId, impostor, 'fivem', fake, 'play.borrowed.example');
    expect(set.json()).toMatchObject({ currentPlayers: 437, claim: { status: 'pending' } });

    const player = await createUser(t.app);
    for (const id of [realId, fakeId]) {
      await t.app.inject({ method: 'POST', url: `/api/servers/${id}/follow`, headers: player.headers });
    }
    const keyOf = async (user: TestUser, id: number) =>
      (await t.app.inject({ method: 'POST', url: `/api/servers/${id}/api-keys`, headers: user.headers, payload: { name: 'bot' } })).json()
        .key as string;
    const keys = { [realId]: await keyOf(real, realId), [fakeId]: await keyOf(impostor, fakeId) };

    /** Every public place a live number can show, for one listing: what it says there. */
    const publicFacts = async (id: number) => {
      const find = <T extends { id: string }>(list: T[]) => list.find((s) => s.id === String(id));
      const listed = (query: string): Promise<Array<{ id: string; currentPlayers: number; online: boolean | null }>> =>
        t.app.inject({ url: `/api/servers?${query}` }).then((r) => r.json().servers ?? r.json());
      const page = await detail(id);
      const playersSort: Array<{ id: string; currentPlayers: number; online: boolean | null }> = await listed('sort=players&limit=100');
      const followed = (await t.app.inject({ url: '/api/users/me/follows', headers: player.headers })).json();
      const followedRow = (followed.servers ?? followed).find((s: { id: string }) => s.id === String(id));
      const history = (await t.app.inject({ url: `/api/servers/${id}/history?range=24h` })).json();
      const banner = (await t.app.inject({ url: `/servers/${id}/banner.svg` })).body;
      const html = (await t.app.inject({ url: `/servers/${id}` })).body;
      const api = (await t.app.inject({ url: '/api/v1/server', headers: { authorization: `Bearer ${keys[id]}` } })).json();
      return {
        page: { players: page.currentPlayers, online: page.online, max: page.maxPlayers, connect: page.connect, live: page.live },
        card: find(playersSort)?.currentPlayers,
        online: Boolean(find(await listed('online=true&limit=100'))),
        freeSlots: Boolean(find(await listed('freeSlots=true&limit=100'))),
        minPlayers: Boolean(find(await listed('minPlayers=400&limit=100'))),
        followed: followedRow?.currentPlayers,
        historyPeak: history.peak,
        historyPoints: history.points.length,
        banner: banner.includes('437'),
        // The count as a number of its own: a time in the page's data (`….437Z`) or an id holding the
        // digits is not it.
        html: /(?<![\d.:])437(?!\d)/.test(html) || html.includes('Los Santos') || html.includes(`127.0.0.1:${fake.port}`),
        ownerApi: JSON.stringify(api).includes('437'),
      };
    };
    expect(await publicFacts(realId)).toMatchObject({
      page: { players: 437, online: true, max: 512 },
      card: 437,
      online: true,
      freeSlots: true,
      minPlayers: true,
      followed: 437,
      historyPeak: 437,
      banner: true,
      html: true,
      ownerApi: true,
    });
    expect(await publicFacts(fakeId)).toEqual({
      page: { players: 0, online: null, max: null, connect: null, live: null },
      card: 0,
      online: false,
      freeSlots: false,
      minPlayers: false,
      followed: 0,
      historyPeak: 0,
      historyPoints: 0,
      banner: false,
      html: false,
      ownerApi: false,
    });
    // It sorts as a server that is not connected: after every polled one, 0 players included.
    const sortedAnswer = (await t.app.inject({ url: '/api/servers?sort=players&limit=100' })).json();
    const sorted: Array<{ id: string; online: boolean | null }> = sortedAnswer.servers ?? sortedAnswer;
    const at = sorted.findIndex((s) => s.id === String(fakeId));
    expect(sorted.slice(at).every((s) => s.online === null)).toBe(true);
    const total = (await t.app.inject({ url: '/api/player-count' })).json().count;
    expect(total).toBeGreaterThanOrEqual(437);
    expect(total).toBeLessThan(2 * 437);
  }, 90_000);

  it('moves a verified address to a second listing only when its owner proves control, and tells the first owner', async () => {
    const fake = pool.fivem5!;
    fake.set({ players: 30, max: 64 });
    const first = await owner();
    const firstId = await listing(first, 'First Claim RP');
    await connect(firstId, first, 'fivem', fake);
    await proveGame(t.app, firstId, first, (code) => fake.set({ players: 30, max: 64, name: `First ${code}` }));
    expect((await detail(firstId)).currentPlayers).toBe(30);

    // Another spelling of the same address (a name resolving to the same IP) is the same address.
    const second = await owner();
    const secondId = await listing(second, 'Second Claim RP');
    const set = await connect(secondId, second, 'fivem', fake, 'play.borrowed.example');
    expect(set.json().claim.status).toBe('pending');
    advance(61_000);
    await t.app.ctx.gameStatus.pollDue();
    expect((await detail(firstId)).currentPlayers).toBe(30);
    expect((await detail(secondId)).currentPlayers).toBe(0);
    expect((await status(secondId, second)).claim.status).toBe('pending');

    const mailsBefore = smtp.mails.length;
    const proved = await proveGame(t.app, secondId, second, (code) => fake.set({ players: 31, max: 64, projectDesc: code }));
    expect(proved.json().claim.status).toBe('verified');
    expect(await detail(secondId)).toMatchObject({ currentPlayers: 31, online: true });
    expect(await detail(firstId)).toMatchObject({ currentPlayers: 0, online: null, connect: null, live: null });
    expect((await t.app.inject({ url: `/api/servers/${firstId}/history?range=24h` })).json().points).toEqual([]);
    // The first owner may prove it back: a new pending claim with a new code.
    const firstView = await status(firstId, first);
    expect(firstView.claim).toMatchObject({ status: 'pending' });
    const inbox = (await t.app.inject({ url: '/api/notifications', headers: first.headers })).json();
    const notices = inbox.notifications ?? inbox;
    expect(notices[0]).toMatchObject({ title: 'First Claim RP no longer shows live numbers', link: `/dashboard/${firstId}` });
    const mails = await smtp.waitFor(mailsBefore + 1);
    expect(mails.some((m) => m.to.includes(first.row.email!) && m.text.includes('Another listing proved'))).toBe(true);

    const claims = (await t.app.inject({ url: '/api/admin/game-claims?status=ended&limit=100', headers: admin.headers })).json().claims;
    expect(claims.find((c: { serverId: string }) => c.serverId === String(firstId))).toMatchObject({
      endedReason: 'superseded',
      status: 'ended',
    });
  }, 90_000);

  it('keeps an address verified once the code is taken out again, through later polls', async () => {
    const fake = pool.mc2!;
    const user = await owner();
    const id = await listing(user);
    await connect(id, user, 'minecraft', fake);
    await proveGame(t.app, id, user, (code) => fake.set({ players: 5, max: 50, name: `Join us ${code}` }));
    fake.set({ players: 17, max: 50, name: 'Join us' });
    advance(61_000);
    await t.app.ctx.gameStatus.pollDue();
    expect(await detail(id)).toMatchObject({ currentPlayers: 17, online: true });
    expect((await status(id, user)).claim).toMatchObject({ status: 'verified' });
    // Saving the same address again (a new join setting) keeps it verified; a new port starts over.
    expect(
      (await putGame(t.app, id, user, { game: 'minecraft', host: '127.0.0.1', port: fake.port, showPlayerNames: false })).json().claim
        .status,
    ).toBe('verified');
    const moved = await putGame(t.app, id, user, { game: 'minecraft', host: '127.0.0.1', port: pool.mc1!.port });
    expect(moved.json().claim.status).toBe('pending');
    expect(await detail(id)).toMatchObject({ currentPlayers: 0, online: null });
  }, 60_000);

  it('takes the proof away when a verified name is pointed at another IP: no borrowing by DNS', async () => {
    const victim = pool.mc0!;
    victim.set({ players: 777, max: 1000, name: 'The real server' });
    const attacker = await owner();
    const id = await listing(attacker, 'Borrowing by DNS');
    dns['play.attacker.example'] = ['127.0.0.2'];
    const set = await putGame(t.app, id, attacker, { game: 'minecraft', host: 'play.attacker.example', port: victim.port });
    expect(set.json().claim.status).toBe('pending');
    await proveGame(t.app, id, attacker, (code) => elsewhere.set({ players: 2, max: 10, name: `Mine ${code}` }));
    expect((await detail(id)).currentPlayers).toBe(2);
    // The name now points at the popular server: its 777 players must not show on this listing.
    dns['play.attacker.example'] = ['127.0.0.1'];
    advance(61_000);
    await t.app.ctx.gameStatus.pollDue();
    expect(await detail(id)).toMatchObject({ currentPlayers: 0, online: null, connect: null });
    const view = await status(id, attacker);
    expect(view.claim.status).toBe('pending');
    const inbox = (await t.app.inject({ url: '/api/notifications', headers: attacker.headers })).json();
    expect((inbox.notifications ?? inbox)[0].message).toContain('now points to another IP');
    // Saving the same name again does not bring the proof back either.
    await putGame(t.app, id, attacker, { game: 'minecraft', host: 'play.attacker.example', port: victim.port });
    expect((await status(id, attacker)).claim.status).toBe('pending');
    expect((await detail(id)).currentPlayers).toBe(0);
    delete dns['play.attacker.example'];
  }, 60_000);

  it('verifies a pending claim from the poller alone, without "Check now"', async () => {
    const fake = pool.source2!;
    fake.set({ players: 3, max: 32, name: 'Quiet RP' });
    const user = await owner();
    const id = await listing(user);
    const code = (await connect(id, user, 'garrysmod', fake)).json().claim.code as string;
    fake.set({ players: 4, max: 32, name: `Quiet RP ${code}` });
    advance(61_000);
    expect(await t.app.ctx.gameStatus.pollDue()).toBeGreaterThanOrEqual(1);
    expect((await status(id, user)).claim.status).toBe('verified');
    expect((await detail(id)).currentPlayers).toBe(4);
  }, 60_000);

  it('shows a count that is not plausible as the lower number, and flags it for admins', async () => {
    const fivem = pool.fivem6!;
    const user = await owner();
    const id = await listing(user);
    await connect(id, user, 'fivem', fivem);
    const names = Array.from({ length: 10 }, (_, i) => `player${i}`);
    await proveGame(t.app, id, user, (code) => fivem.set({ players: 500, max: 512, names, name: code }));
    expect((await detail(id)).currentPlayers).toBe(10);

    const mcId = await listing(user);
    const mc = pool.mc1!;
    mc.set({ players: 300, max: 100 });
    await connect(mcId, user, 'minecraft', mc);
    expect((await status(mcId, user)).currentPlayers).toBe(100);
    await proveGame(t.app, mcId, user, (code) => mc.set({ players: 300, max: 100, name: code }));
    expect(await detail(mcId)).toMatchObject({ currentPlayers: 100, maxPlayers: 100 });

    // A count the game's own list cannot back (no /players.json) is shown as reported, and flagged.
    const quiet = pool.fivem8!;
    const quietId = await listing(user);
    await connect(quietId, user, 'fivem', quiet);
    (quiet as unknown as { behave(mode: string): void }).behave('no-player-list');
    await proveGame(t.app, quietId, user, (code) => quiet.set({ players: 40, max: 64, name: code }));
    expect((await detail(quietId)).currentPlayers).toBe(40);
    (quiet as unknown as { behave(mode: string): void }).behave('normal');

    const flagged = (await t.app.inject({ url: '/api/admin/game-claims?status=flagged', headers: admin.headers })).json();
    const flagOf = (serverId: number) => flagged.claims.find((c: { serverId: string }) => c.serverId === String(serverId))?.flag;
    expect(flagOf(id)).toBe('reported 500 players but listed 10');
    expect(flagOf(mcId)).toBe('reported 300 players for 100 slots');
    expect(flagOf(quietId)).toBe('the player list did not answer');
  }, 60_000);

  it('lets admins list claims and revoke a verification; nobody else', async () => {
    const fake = pool.fivem7!;
    const user = await owner();
    const id = await listing(user, 'Revoked RP');
    await connect(id, user, 'fivem', fake);
    await proveGame(t.app, id, user, (code) => fake.set({ players: 8, max: 48, name: code }));
    const verified = (await status(id, user)).claim;
    const list = (await t.app.inject({ url: '/api/admin/game-claims?status=verified&limit=100', headers: admin.headers })).json();
    const row = list.claims.find((c: { serverId: string }) => c.serverId === String(id));
    expect(row).toMatchObject({ serverName: 'Revoked RP', ownerUsername: user.row.username, game: 'fivem', status: 'verified' });
    expect(list.total).toBeGreaterThanOrEqual(1);

    const player = await createUser(t.app);
    for (const who of [user, player]) {
      expect((await t.app.inject({ url: '/api/admin/game-claims', headers: who.headers })).statusCode).toBe(403);
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/admin/game-claims/${row.id}/revoke`, headers: who.headers })).statusCode,
      ).toBe(403);
    }
    expect((await t.app.inject({ url: '/api/admin/game-claims' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/game-claims?status=lost', headers: admin.headers })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/game-claims/999999999/revoke', headers: admin.headers })).statusCode,
    ).toBe(404);

    const revoke = () => t.app.inject({ method: 'POST', url: `/api/admin/game-claims/${row.id}/revoke`, headers: admin.headers });
    expect((await revoke()).statusCode).toBe(204);
    expect((await revoke()).json()).toMatchObject({ error: 'Only a verified address can be revoked.' });
    expect(await detail(id)).toMatchObject({ currentPlayers: 0, online: null, connect: null });
    const after = (await status(id, user)).claim;
    expect(after.status).toBe('pending');
    expect(after.code).not.toBe(verified.code);
    const inbox = (await t.app.inject({ url: '/api/notifications', headers: user.headers })).json();
    expect((inbox.notifications ?? inbox)[0].message).toContain('An admin revoked');
  }, 60_000);

  it('keeps one live claim per listing when saves, checks and removals arrive at once', async () => {
    const user = await owner();
    const id = await listing(user);
    const ports = [pool.fivem8!.port, pool.mc1!.port, pool.source1!.port];
    const games: Game[] = ['fivem', 'minecraft', 'garrysmod'];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 4 === 3 ? check(id, user) : putGame(t.app, id, user, { game: games[i % 3], host: '127.0.0.1', port: ports[i % 3] }),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200 && s !== 400)).toEqual([]);
    const live = await t.app.ctx.db
      .selectFrom('gameClaims')
      .select('status')
      .where('serverId', '=', id)
      .where('status', '<>', 'ended')
      .execute();
    expect(live).toHaveLength(1);
    await Promise.all([
      t.app.inject({ method: 'DELETE', url: `/api/servers/${id}/game`, headers: user.headers }),
      putGame(t.app, id, user, { game: 'fivem', host: '127.0.0.1', port: pool.fivem8!.port }),
    ]);
    const after = await t.app.ctx.db
      .selectFrom('gameClaims')
      .select('status')
      .where('serverId', '=', id)
      .where('status', '<>', 'ended')
      .execute();
    expect(after.length).toBeLessThanOrEqual(1);
    expect(t.takeErrors()).toEqual([]);
  }, 60_000);

  it("answers another owner's check with 403, and a check without an address with 400", async () => {
    const user = await owner();
    const other = await owner();
    const id = await listing(user);
    expect((await check(id, other)).statusCode).toBe(403);
    expect((await check(id, user)).json()).toMatchObject({ error: 'Connect a game address first.' });
    expect((await check(999_999_999, user)).statusCode).toBe(404);
    await connect(id, user, 'fivem', pool.fivem8!);
    expect((await check(id, other)).statusCode).toBe(403);
    expect((await status(id, other)).error).toBeDefined();
  }, 30_000);

  it('never puts back the numbers of a poll that was under way when the address was removed', async () => {
    const fake = pool.fivem8!;
    const user = await owner();
    const id = await listing(user, 'Raced Away RP');
    dns['race.example'] = ['127.0.0.1'];
    expect((await connect(id, user, 'fivem', fake, 'race.example')).statusCode).toBe(200);
    const proved = await proveGame(t.app, id, user, (code) => fake.set({ players: 7, max: 64, projectName: `Raced ${code}` }));
    expect(proved.json().claim.status).toBe('verified');
    expect((await detail(id)).currentPlayers).toBe(7);

    // The next poll asks the address; while it waits, the owner removes the address.
    fake.set({ players: 5000, max: 5000, map: 'Borrowed' });
    let entered!: () => void;
    let release!: () => void;
    const inLookup = new Promise<void>((resolve) => (entered = resolve));
    held['race.example'] = { entered, gate: new Promise<void>((resolve) => (release = resolve)) };
    advance(61_000);
    const polling = t.app.ctx.gameStatus.pollDue();
    await inLookup;
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/servers/${id}/game`, headers: user.headers });
    expect(removed.statusCode).toBe(204);
    const heard: unknown[] = [];
    t.app.ctx.discovery.onChange((change) => {
      if (change.kind === 'counts' && change.checkedIds.includes(id)) heard.push(change);
    });
    release();
    await polling;
    delete held['race.example'];
    // Nothing written, nothing told: the poll drops no cache of the listing.
    expect(heard).toEqual([]);
    expect(await detail(id)).toMatchObject({ currentPlayers: 0, online: null, live: null, connect: null });
    const row = await t.app.ctx.db
      .selectFrom('servers')
      .select(['currentPlayers', 'online', 'lastPolledAt', 'gameMap'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ currentPlayers: 0, online: null, lastPolledAt: null, gameMap: null });
  });

  it("holds a round's servers until the round could have reached the last of them: another instance does not poll them meanwhile", async () => {
    const fake = pool.fivem8!;
    const user = await owner();
    const id = await listing(user, 'Slow Round RP');
    dns['slow.example'] = ['127.0.0.1'];
    expect((await connect(id, user, 'fivem', fake, 'slow.example')).statusCode).toBe(200);
    await proveGame(t.app, id, user, (code) => fake.set({ players: 3, max: 32, projectName: `Slow ${code}` }));
    expect((await status(id, user)).claim.status).toBe('verified');

    let asked = 0;
    let entered!: () => void;
    let release!: () => void;
    const inLookup = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    held['slow.example'] = { entered: () => (asked++, entered()), gate };
    advance(61_000);
    // One instance's round reaches this server and waits on its name, as a slow DNS or game server holds it.
    const first = t.app.ctx.gameStatus.pollDue();
    await inLookup;
    // Past four query timeouts (3 s each here): a round of 50 at 5 at once can take far longer.
    advance(4 * 3000 + 1);
    const second = t.app.ctx.gameStatus.pollDue().then(() => 'done');
    const outcome = await Promise.race([second, new Promise((resolve) => setTimeout(() => resolve('asked again'), 5000))]);
    release();
    await first;
    await second;
    delete held['slow.example'];
    expect(outcome).toBe('done');
    expect(asked).toBe(1);
  });
});
