import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, SIGNATURE_HEADER } from '../src/server/modules/vote-rewards';
import { createTestApp, type TestApp } from './helpers/test-app';
import { until } from './helpers/until';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { startVotifier, startWebhookReceiver } from './helpers/reward-receivers';
import { tableLookup } from './helpers/address-spellings';

describe('vote rewards', () => {
  let t: TestApp;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let v2: Awaited<ReturnType<typeof startVotifier>>;
  let v1: Awaited<ReturnType<typeof startVotifier>>;
  let owner: TestUser;
  let serverId: number;
  /** What names resolve to; a test changes it to see delivery check again when it connects. */
  const dns: Record<string, string[]> = { 'hooks.example': ['93.184.216.34'] };
  beforeAll(async () => {
    [hook, v2, v1] = await Promise.all([startWebhookReceiver(), startVotifier(2), startVotifier(1)]);
    t = await createTestApp({
      build: {
        runWorkers: true,
        queue: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 },
        voteRewards: {
          policy: { allowTargets: [hook.target, v2.target, v1.target], lookup: (name, options) => tableLookup(dns)(name, options) },
          ca: hook.cert,
        },
      },
    });
    owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id, { name: 'Rewarding Realms' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([hook?.close(), v2?.close(), v1?.close()]);
  });

  const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method, url: `/api/servers/${serverId}${url}`, headers: user.headers, ...(payload ? { payload } : {}) });
  const settings = async () => (await api('GET', '/rewards', owner)).json();

  it('signs each counted vote to the owner’s HTTPS webhook, retried until it is taken, with a log', async () => {
    const saved = await api('PUT', '/rewards/webhook', owner, { url: hook.url });
    expect(saved.statusCode).toBe(200);
    const { secret } = saved.json();
    expect(secret).toMatch(/^whsec_/);
    // Shown once: saving again keeps it and does not show it.
    expect((await api('PUT', '/rewards/webhook', owner, { url: hook.url })).json().secret).toBeNull();
    expect((await settings()).webhook).toEqual({ url: hook.url, secretHint: expect.stringMatching(/^whsec_…/) });

    hook.plan.push(500);
    const player = await createUser(t.app);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/servers/${serverId}/vote`,
          headers: player.headers,
          payload: { playerName: 'Notch' },
        })
      ).statusCode,
    ).toBe(200);
    const delivery = await until(async () => (await settings()).deliveries.find((d: { status: string }) => d.status === 'delivered'));
    expect(delivery).toMatchObject({ kind: 'webhook', test: false, attempts: 2, playerName: 'Notch', lastError: null });
    expect(hook.received).toHaveLength(2);
    const last = hook.received.at(-1)!;
    expect(verifyWebhook(secret, last.body, String(last.headers[SIGNATURE_HEADER]), Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifyWebhook('whsec_wrong', last.body, String(last.headers[SIGNATURE_HEADER]), Math.floor(Date.now() / 1000))).toBe(false);
    expect(JSON.parse(last.body)).toMatchObject({
      type: 'vote',
      test: false,
      serverId: String(serverId),
      playerName: 'Notch',
      username: player.row.username,
    });
  });

  it('never follows a redirect, and sends a test vote on request', async () => {
    hook.plan.push(302, 302, 302, 302, 302, 302, 302, 302);
    const test = await api('POST', '/rewards/test', owner);
    expect(test.statusCode).toBe(200);
    const [id] = test.json().deliveries;
    const failing = await until(async () =>
      (await settings()).deliveries.find((d: { id: string; attempts: number }) => d.id === id && d.attempts >= 2),
    );
    expect(failing.lastError).toContain('redirect');
    expect(hook.received.every((r) => r.path === '/hooks/votes')).toBe(true);
    hook.plan.length = 0;
  });

  it('tells Votifier v2 listeners with the token and challenge, and v1 listeners with their RSA key', async () => {
    await api('DELETE', '/rewards/webhook', owner);
    expect((await api('PUT', '/rewards/votifier', owner, { version: 2, host: v2.host, port: v2.port, token: v2.token })).statusCode).toBe(
      200,
    );
    await api('POST', '/rewards/test', owner);
    await until(async () => v2.received.length > 0);
    expect(v2.received[0]).toMatchObject({ serviceName: 'RP Servers', username: 'RPServersTest' });
    expect(v2.errors).toEqual([]);

    expect(
      (await api('PUT', '/rewards/votifier', owner, { version: 1, host: v1.host, port: v1.port, publicKey: v1.publicKey })).statusCode,
    ).toBe(200);
    const player = await createUser(t.app);
    await t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/vote`, headers: player.headers, payload: { playerName: 'Jeb_' } });
    await until(async () => v1.received.length > 0);
    expect(v1.received[0]).toMatchObject({ serviceName: 'RP Servers', username: 'Jeb_', address: '127.0.0.1' });
    expect(v1.errors).toEqual([]);
    // The listener has the vote a moment before the worker writes its log line: wait for both.
    const delivered = async () =>
      (await settings()).deliveries.filter((d: { kind: string; status: string }) => d.kind === 'votifier' && d.status === 'delivered')
        .length;
    await until(async () => (await delivered()) >= 2);
    expect(await delivered()).toBeGreaterThanOrEqual(2);
    // A wrong token is reported in the log, not silently dropped.
    await api('PUT', '/rewards/votifier', owner, { version: 2, host: v2.host, port: v2.port, token: 'not-the-token' });
    const [bad] = (await api('POST', '/rewards/test', owner)).json().deliveries;
    const refused = await until(async () =>
      (await settings()).deliveries.find((d: { id: string; lastError: string | null }) => d.id === bad && d.lastError),
    );
    expect(refused.lastError).toContain('Signature is not valid');
  });

  it('refuses other people, plain http, private addresses, bad keys and tests with nothing set up', async () => {
    const stranger = await createUser(t.app, { role: 'server_owner' });
    expect((await api('GET', '/rewards', stranger)).statusCode).toBe(403);
    expect((await api('PUT', '/rewards/webhook', stranger, { url: hook.url })).statusCode).toBe(403);
    expect((await api('PUT', '/rewards/webhook', owner, { url: 'http://example.com/hook' })).statusCode).toBe(400);
    expect(
      (await api('PUT', '/rewards/votifier', owner, { version: 1, host: 'mc.example.com', port: 8192, publicKey: 'A'.repeat(200) }))
        .statusCode,
    ).toBe(400);
    expect(
      (await api('PUT', '/rewards/votifier', owner, { version: 2, host: 'mc.example.com', port: 70000, token: 'x'.repeat(20) })).statusCode,
    ).toBe(400);
    await api('DELETE', '/rewards/votifier', owner);
    expect((await api('POST', '/rewards/test', owner)).statusCode).toBe(400);
    // A loopback port nobody allowed is refused when saved.
    expect((await api('PUT', '/rewards/webhook', owner, { url: 'https://127.0.0.1:9/hook' })).statusCode).toBe(400);
    // A name that was public when saved and now resolves to loopback: delivery checks again, every attempt.
    expect((await api('PUT', '/rewards/webhook', owner, { url: 'https://hooks.example/hook' })).statusCode).toBe(200);
    dns['hooks.example'] = ['127.0.0.1'];
    const [id] = (await api('POST', '/rewards/test', owner)).json().deliveries;
    const refused = await until(async () =>
      (await settings()).deliveries.find((d: { id: string; lastError: string | null }) => d.id === id && d.lastError),
    );
    expect(refused.lastError).toMatch(/private or r/);
  });
});
