import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostLookup } from '../src/server/adapters/address-guard';
import { MSG } from '../src/shared/messages';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { REFUSED_SPELLINGS, tableLookup } from './helpers/address-spellings';

/** The one loopback target this app may reach (nothing listens there: saving sends nothing). */
const ALLOWED = { ip: '127.0.0.1', port: 40_001 };

/** What the brief's attackers saved as webhooks before targets were checked on save. */
const ATTACK_WEBHOOKS = [
  'https://169.254.169.254:8443/hook',
  'https://127.0.0.1/hook',
  'https://[::1]/hook',
  'https://[0:0:0:0:0:ffff:7f00:1]/hook',
  'https://10.0.0.1/hook',
  'https://192.168.1.1/hook',
  'https://172.16.0.1/hook',
  'https://[fe80::1]/hook',
  'https://0.0.0.0/hook',
];
/** The same hosts as Votifier hosts. */
const ATTACK_HOSTS = ['169.254.169.254', '127.0.0.1', '[::1]', '[0:0:0:0:0:ffff:7f00:1]', '10.0.0.1', '192.168.1.1', '172.16.0.1'];
/** URLs typed where a host is expected. */
const URLS_AS_HOSTS = ['http://127.0.0.1', 'file:///etc/passwd', 'https://x.example/', 'https://mc.example.com:8192'];

/**
 * The spellings of REFUSED_SPELLINGS that are not refused for where they point but for how they
 * are written; every other one must be refused as a loopback, private or reserved address.
 */
const WEBHOOK_NOT_PRIVATE: Record<string, string> = {
  // Not a URL at all once put in one: the body's schema refuses it.
  'fe80::1%eth0': 'Enter the full https:// address of your webhook',
  '1.2.3.4.5': 'Enter the full https:// address of your webhook',
  'bad host!': 'Enter the full https:// address of your webhook',
  'user@127.0.0.1': MSG.webhookCredentials,
  // `https://http://127.0.0.1/hook` is a URL whose host is `http`, which resolves nowhere.
  'http://127.0.0.1': MSG.webhookHostUnresolved,
  'a..b': MSG.webhookHostInvalid,
  'under_score.example': MSG.webhookHostInvalid,
};
const VOTIFIER_NOT_PRIVATE: Record<string, string> = {
  '127.0.0.1:80': MSG.votifierHostWithPort,
  '[::1]:80': MSG.votifierHostWithPort,
  'http://127.0.0.1': MSG.votifierHostIsUrl,
  '127.0.0.1/x': MSG.votifierHostIsUrl,
  'user@127.0.0.1': MSG.votifierHostInvalid,
  '%31%32%37.0.0.1': MSG.votifierHostInvalid,
  'fe80::1%eth0': MSG.votifierHostInvalid,
  '1.2.3.4.5': MSG.votifierHostInvalid,
  'bad host!': MSG.votifierHostInvalid,
  'a..b': MSG.votifierHostInvalid,
  'under_score.example': MSG.votifierHostInvalid,
};

/** A spelling as the host of a webhook URL: a bare IPv6 address needs its brackets there. */
const webhookUrl = (spelling: string) => `https://${!spelling.startsWith('[') && net.isIPv6(spelling) ? `[${spelling}]` : spelling}/hook`;

describe('vote-reward targets are checked when saved', () => {
  let t: TestApp;
  let owner: TestUser;
  let serverId: number;
  /** Every name the app asked the resolver for. */
  const asked: string[] = [];
  const table = tableLookup({
    'example.com': ['93.184.216.34'],
    'mc.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'mixed.example': ['93.184.216.34', '10.0.0.1'],
    'mixed6.example': ['2606:2800:220:1:248:1893:25c8:1946', 'fd00::1'],
    'metadata.example': ['169.254.169.254'],
    'loopback.example': ['127.0.0.1'],
    'empty.example': [],
  });
  const lookup: HostLookup = (name, options) => {
    asked.push(name);
    return table(name, options);
  };
  const votifierBody = (host: string, port = 8192) => ({ version: 2, host, port, token: 'nuvotifier-token' });

  beforeAll(async () => {
    t = await createTestApp({
      build: { runWorkers: false, voteRewards: { policy: { allowTargets: [`${ALLOWED.ip}:${ALLOWED.port}`], lookup } } },
    });
    owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id)).id;
  });
  afterAll(() => t?.close());

  const put = (kind: 'webhook' | 'votifier', payload: object, user: TestUser = owner, id: number = serverId) =>
    t.app.inject({ method: 'PUT', url: `/api/servers/${id}/rewards/${kind}`, headers: user.headers, payload });
  const settings = async (id: number = serverId) =>
    (await t.app.inject({ url: `/api/servers/${id}/rewards`, headers: owner.headers })).json() as {
      webhook: { url: string } | null;
      votifier: { host: string; port: number } | null;
    };
  /** Each payload is refused with 400 and its message; answers the ones that were not. */
  const refusals = async (kind: 'webhook' | 'votifier', cases: Array<[payload: object, message: string]>, id = serverId) => {
    const wrong: string[] = [];
    for (const [payload, message] of cases) {
      const res = await put(kind, payload, owner, id);
      const error = res.statusCode === 400 ? (res.json() as { error: string }).error : undefined;
      if (error !== message)
        wrong.push(`${JSON.stringify(payload)} → ${res.statusCode} ${res.body.slice(0, 120)} (expected 400 ${message})`);
    }
    return wrong;
  };

  it('accepts public targets, named or literal, resolved through the lookup table', async () => {
    const saved = await put('webhook', { url: 'https://example.com/hook' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().secret).toMatch(/^whsec_/);
    for (const host of ['8.8.8.8', '2606:4700:4700::1111', '[2606:4700:4700::1111]', 'mc.example.com'])
      expect((await put('votifier', votifierBody(host))).statusCode, host).toBe(200);
    expect(asked).toEqual(['example.com', 'mc.example.com']);
    expect(await settings()).toMatchObject({
      webhook: { url: 'https://example.com/hook' },
      votifier: { host: 'mc.example.com', port: 8192 },
    });
  });

  it('refuses every spelling of a loopback, private, link-local, shared, reserved or metadata webhook, and saves nothing', async () => {
    const wrong = await refusals('webhook', [
      ...ATTACK_WEBHOOKS.map((url): [object, string] => [{ url }, MSG.webhookHostPrivate]),
      ...REFUSED_SPELLINGS.map((s): [object, string] => [{ url: webhookUrl(s) }, WEBHOOK_NOT_PRIVATE[s] ?? MSG.webhookHostPrivate]),
      // Names: every address they resolve to must be public, not just one of them.
      [{ url: 'https://mixed.example/hook' }, MSG.webhookHostPrivate],
      [{ url: 'https://mixed6.example/hook' }, MSG.webhookHostPrivate],
      [{ url: 'https://metadata.example/hook' }, MSG.webhookHostPrivate],
      [{ url: 'https://loopback.example:8443/hook' }, MSG.webhookHostPrivate],
      [{ url: 'https://nowhere.example/hook' }, MSG.webhookHostUnresolved],
      [{ url: 'https://empty.example/hook' }, MSG.webhookHostUnresolved],
      [{ url: 'https://example.com:secret@example.com/hook', rotate: true }, MSG.webhookCredentials],
    ]);
    expect(wrong, wrong.join('\n')).toEqual([]);
    expect((await settings()).webhook).toEqual({ url: 'https://example.com/hook', secretHint: expect.any(String) });
  });

  it('refuses the same for Votifier, and URLs or ports typed where the host goes, and saves nothing', async () => {
    const wrong = await refusals('votifier', [
      ...ATTACK_HOSTS.map((host): [object, string] => [votifierBody(host), MSG.votifierHostPrivate]),
      [votifierBody('[fe80::1]'), MSG.votifierHostPrivate],
      [votifierBody('0.0.0.0'), MSG.votifierHostPrivate],
      [votifierBody('169.254.169.254', 8443), MSG.votifierHostPrivate],
      ...URLS_AS_HOSTS.map((host): [object, string] => [votifierBody(host), MSG.votifierHostIsUrl]),
      [votifierBody('mc.example.com:8192'), MSG.votifierHostWithPort],
      ...REFUSED_SPELLINGS.map((s): [object, string] => [votifierBody(s), VOTIFIER_NOT_PRIVATE[s] ?? MSG.votifierHostPrivate]),
      [votifierBody('mixed.example'), MSG.votifierHostPrivate],
      [votifierBody('mixed6.example'), MSG.votifierHostPrivate],
      [votifierBody('metadata.example'), MSG.votifierHostPrivate],
      [votifierBody('nowhere.example'), MSG.votifierHostUnresolved],
      [votifierBody('empty.example'), MSG.votifierHostUnresolved],
    ]);
    expect(wrong, wrong.join('\n')).toEqual([]);
    expect((await settings()).votifier).toMatchObject({ host: 'mc.example.com', port: 8192, version: 2 });
  });

  it('creates nothing for a server without targets', async () => {
    const fresh = (await createServer(t.app, owner.row.id)).id;
    const wrong = [
      ...(await refusals(
        'webhook',
        ATTACK_WEBHOOKS.map((url) => [{ url }, MSG.webhookHostPrivate]),
        fresh,
      )),
      ...(await refusals(
        'votifier',
        [...ATTACK_HOSTS, 'http://127.0.0.1', 'file:///etc/passwd'].map((host) => [
          votifierBody(host),
          host.includes('://') ? MSG.votifierHostIsUrl : MSG.votifierHostPrivate,
        ]),
        fresh,
      )),
    ];
    expect(wrong, wrong.join('\n')).toEqual([]);
    expect(await settings(fresh)).toMatchObject({ webhook: null, votifier: null });
    const rows = await t.app.ctx.db.selectFrom('rewardTargets').select('serverId').where('serverId', '=', fresh).execute();
    expect(rows).toEqual([]);
  });

  it('lets through the test allow-list’s exact loopback ip:port, and no other port', async () => {
    expect((await put('webhook', { url: `https://${ALLOWED.ip}:${ALLOWED.port}/hook` })).statusCode).toBe(200);
    expect((await put('votifier', votifierBody(ALLOWED.ip, ALLOWED.port))).statusCode).toBe(200);
    const wrong = [
      ...(await refusals('webhook', [[{ url: `https://${ALLOWED.ip}:${ALLOWED.port + 1}/hook` }, MSG.webhookHostPrivate]])),
      ...(await refusals('votifier', [[votifierBody(ALLOWED.ip, ALLOWED.port + 1), MSG.votifierHostPrivate]])),
    ];
    expect(wrong, wrong.join('\n')).toEqual([]);
    expect(await settings()).toMatchObject({
      webhook: { url: `https://${ALLOWED.ip}:${ALLOWED.port}/hook` },
      votifier: { host: ALLOWED.ip, port: ALLOWED.port },
    });
  });

  it('checks the owner before the body: someone else gets 403 whatever the body, and nothing is resolved for them', async () => {
    const stranger = await createUser(t.app, { role: 'server_owner' });
    const player = await createUser(t.app);
    asked.length = 0;
    for (const user of [stranger, player]) {
      for (const [kind, payload] of [
        ['webhook', { url: 'https://127.0.0.1/hook' }],
        ['webhook', { url: 'https://mixed.example/hook' }],
        ['webhook', { url: 'not a url' }],
        ['webhook', { nothing: true }],
        ['votifier', votifierBody('mixed.example')],
        ['votifier', votifierBody('file:///etc/passwd')],
        ['votifier', { version: 3 }],
      ] as const) {
        const res = await put(kind, payload, user);
        expect(res.statusCode, `${kind} ${JSON.stringify(payload)}`).toBe(403);
        expect(res.json()).toMatchObject({ error: MSG.notYourServer });
      }
    }
    expect(asked).toEqual([]);
    // A server that does not exist is 404, as before, for anyone.
    expect((await put('webhook', { url: 'https://127.0.0.1/hook' }, stranger, 99_999_999)).statusCode).toBe(404);
  });
});
