import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages';
import { createTestApp, type TestApp } from './helpers/test-app';
import { until } from './helpers/until';
import { createServer, createUser, putGame, type TestUser } from './helpers/factories';
import { startCanary, startFakeFiveM, startFakeMinecraft } from './helpers/fake-game-servers';
import { startVotifier, startWebhookReceiver } from './helpers/reward-receivers';
import { captureLogs } from './helpers/log-capture';

describe('OUTBOUND_TEST_TARGETS', () => {
  let t: TestApp;
  let owner: TestUser;
  let fivem: Awaited<ReturnType<typeof startFakeFiveM>>;
  let mc: Awaited<ReturnType<typeof startFakeMinecraft>>;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let votifier: Awaited<ReturnType<typeof startVotifier>>;
  /** Listens on loopback where nothing may go: its port is not listed. */
  let canary: Awaited<ReturnType<typeof startCanary>>;
  const logs = captureLogs('warn');

  beforeAll(async () => {
    [fivem, mc, hook, votifier, canary] = await Promise.all([
      startFakeFiveM({ players: 7, max: 32 }),
      startFakeMinecraft({ players: 3, max: 20 }),
      startWebhookReceiver(),
      startVotifier(2),
      startCanary(),
    ]);
    t = await createTestApp({
      // The configuration lists the FiveM server and both reward receivers; the build's own list
      // adds the Minecraft server, and the two lists are merged, not one instead of the other.
      env: { OUTBOUND_TEST_TARGETS: `127.0.0.1:${fivem.port},${hook.target},${votifier.target}` },
      build: {
        logger: logs.logger,
        gamePoll: { allowTargets: [`127.0.0.1:${mc.port}`], timeoutMs: 3000 },
        runWorkers: true,
        queue: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 },
        // Only the certificate of the local HTTPS receiver: where it may be reached comes from the configuration.
        voteRewards: { ca: hook.cert },
      },
    });
    owner = await createUser(t.app, { role: 'server_owner' });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([fivem?.close(), mc?.close(), hook?.close(), votifier?.close(), canary?.close()]);
  });

  it('warns once at start-up that the guard lets test targets through', () => {
    const warnings = logs.entries.filter((e) => e.level === 40 && e.msg.includes('OUTBOUND_TEST_TARGETS'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toBe(
      'OUTBOUND_TEST_TARGETS is set: the outbound address guard lets these loopback targets through; for tests only',
    );
  });

  it('lets a game query reach exactly the listed loopback target, and no other loopback port', async () => {
    const server = await createServer(t.app, owner.row.id);
    const listed = await putGame(t.app, server.id, owner, { game: 'fivem', host: '127.0.0.1', port: fivem.port });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({ online: true, currentPlayers: 7, maxPlayers: 32, error: null });
    expect(fivem.requests.length).toBeGreaterThan(0);
    // The build's own allow-list still counts beside the configuration's.
    const fromBuild = await putGame(t.app, server.id, owner, { game: 'minecraft', host: '127.0.0.1', port: mc.port });
    expect(fromBuild.json()).toMatchObject({ online: true, currentPlayers: 3 });

    for (const [host, port] of [
      ['127.0.0.1', canary.port],
      ['localhost', fivem.port],
      ['[::1]', fivem.port],
      ['127.0.0.2', fivem.port],
    ] as const) {
      const refused = await putGame(t.app, server.id, owner, { game: 'fivem', host, port });
      expect(refused.statusCode, `${host}:${port}`).toBe(400);
      expect(refused.json().error, `${host}:${port}`).toBe(MSG.gameHostPrivate);
    }
    expect(canary.hits()).toBe(0);
  });

  it('lets a webhook and a Votifier listener on the listed targets be saved and reached, and no other loopback port', async () => {
    const server = await createServer(t.app, owner.row.id);
    const put = (kind: 'webhook' | 'votifier', payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/servers/${server.id}/rewards/${kind}`, headers: owner.headers, payload });

    const otherPort = await put('webhook', { url: `https://127.0.0.1:${canary.port}/hook` });
    expect(otherPort.statusCode).toBe(400);
    expect(otherPort.json().error).toBe(MSG.webhookHostPrivate);
    const otherVotifier = await put('votifier', { version: 2, host: '127.0.0.1', port: canary.port, token: votifier.token });
    expect(otherVotifier.statusCode).toBe(400);
    expect(otherVotifier.json().error).toBe(MSG.votifierHostPrivate);

    expect((await put('webhook', { url: hook.url })).statusCode).toBe(200);
    expect((await put('votifier', { version: 2, host: votifier.host, port: votifier.port, token: votifier.token })).statusCode).toBe(200);
    const test = await t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/rewards/test`, headers: owner.headers });
    expect(test.statusCode, test.body).toBe(200);
    await until(async () => hook.received.length > 0 && votifier.received.length > 0);
    expect(hook.received[0]?.path).toBe('/hooks/votes');
    expect(votifier.received[0]).toMatchObject({ username: 'RPServersTest' });
    expect(canary.hits()).toBe(0);
  });
});
