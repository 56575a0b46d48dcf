import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefused, resolvePublicAddress } from '../../src/server/adapters/address-guard';
import { guardedFetch, OutboundRefused } from '../../src/server/adapters/guarded-http';
import { MSG } from '../../src/shared/messages';
import { createServer, createUser, putGame, type TestUser } from '../helpers/factories';
import { startCanary, startFakeFiveM } from '../helpers/fake-game-servers';
import { REFUSED_SPELLINGS, tableLookup } from '../helpers/address-spellings';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { report, scale } from './report';

/**
 * Server-side request forgery: the game poller (and every other request the server makes itself)
 * must never reach this machine, a private network or a cloud metadata service, whatever the
 * owner types, whatever a game server redirects to, whatever DNS answers the second time.
 * Canaries listen on loopback where a forged request would land; they must see nothing.
 */
describe('SSRF', () => {
  let t: TestApp;
  let owner: TestUser;
  let fivem: Awaited<ReturnType<typeof startFakeFiveM>>;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  /** Same port as the fake game server, on another loopback address: where a rebound name would lead. */
  let rebound: Awaited<ReturnType<typeof startCanary>>;
  let rebindCalls = 0;
  const table = tableLookup({ 'mixed.example': ['8.8.8.8', '10.0.0.1'], 'metadata.example': ['169.254.169.254'], localhost: ['1.1.1.1'] });

  beforeAll(async () => {
    fivem = await startFakeFiveM({ players: 3, max: 32 });
    canary = await startCanary();
    rebound = await startCanary('127.0.0.3', fivem.port);
    t = await createTestApp({
      build: {
        gamePoll: {
          allowTargets: [`127.0.0.1:${fivem.port}`],
          timeoutMs: 1500,
          // rebind.example answers the allowed address, then the rebound one, alternately.
          lookup: async (name, options) =>
            name === 'rebind.example' ? [{ address: rebindCalls++ % 2 === 0 ? '127.0.0.1' : '127.0.0.3' }] : table(name, options),
        },
      },
    });
    owner = await createUser(t.app, { role: 'server_owner' });
  });
  afterAll(async () => {
    await t?.close();
    await fivem?.close();
    await canary?.close();
    await rebound?.close();
  });

  const setGame = (serverId: number, game: string, host: string, port: number) => putGame(t.app, serverId, owner, { game, host, port });

  it('redirect chains to loopback, metadata and private addresses are never followed', async () => {
    const locations = [
      `http://127.0.0.1:${canary.port}/`,
      `http://localhost:${canary.port}/`,
      `http://[::ffff:127.0.0.1]:${canary.port}/`,
      `http://2130706433:${canary.port}/`,
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://10.0.0.1/',
      'http://[fd00::1]/',
      // A chain that starts on the same, allowed server.
      `http://127.0.0.1:${fivem.port}/next-hop`,
      '/next-hop',
    ];
    const statuses = [301, 302, 303, 307, 308];
    let tried = 0;
    let gotThrough = 0;
    // Straight through the guarded client, with the first hop and even the canary allowed.
    const policy = { allowTargets: [`127.0.0.1:${fivem.port}`, `127.0.0.1:${canary.port}`] };
    for (const status of statuses) {
      for (const redirect of locations) {
        fivem.behave({ redirect, status });
        tried++;
        try {
          await guardedFetch(`http://127.0.0.1:${fivem.port}/info.json`, { timeoutMs: 1500, maxBytes: 64 * 1024, policy });
          gotThrough++;
        } catch (error) {
          if (!(error instanceof OutboundRefused && error.reason === 'redirect')) gotThrough++;
        }
      }
    }
    const direct = tried;
    // Through the product: an owner's FiveM server that redirects every status request.
    const server = await createServer(t.app, owner.row.id);
    for (const status of statuses) {
      for (const redirect of locations.slice(0, 5)) {
        fivem.behave({ redirect, status });
        tried++;
        const res = await setGame(server.id, 'fivem', '127.0.0.1', fivem.port);
        if (res.statusCode !== 200 || res.json().online !== null || res.json().error !== MSG.gameUnreachable) gotThrough++;
      }
    }
    fivem.behave('normal');
    gotThrough += canary.hits();
    report({
      area: 'SSRF',
      check: 'redirect chains to loopback/metadata/private',
      tried,
      gotThrough,
      detail: `${direct} through the guarded client, ${tried - direct} through the game poller; canary connections ${canary.hits()}`,
    });
    expect(canary.hits()).toBe(0);
    expect(gotThrough).toBe(0);
  });

  it('address spellings: every form of a private target is refused, as a host, a URL host and through the API', async () => {
    const hosts = [...REFUSED_SPELLINGS, 'mixed.example', 'metadata.example'];
    let tried = 0;
    const accepted: string[] = [];
    const server = await createServer(t.app, owner.row.id);
    for (const host of hosts) {
      tried++;
      await resolvePublicAddress(host, canary.port, { lookup: table }).then(
        () => accepted.push(`guard: ${host}`),
        (error: unknown) => void (error instanceof AddressRefused || accepted.push(`guard error: ${host}`)),
      );
      tried++;
      const res = await setGame(server.id, 'minecraft', host, canary.port);
      if (res.statusCode !== 400) accepted.push(`api: ${host}`);
    }
    // Loopback spellings as the host of a request URL aimed at the canary.
    const loopback = REFUSED_SPELLINGS.filter((h) => /^(?:127|0177|2130706433|0x7f|::1$|\[::1\]|.*7f00:1|localhost|LOCALHOST)/i.test(h));
    for (const host of loopback) {
      const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
      let url: string;
      try {
        url = new URL(`http://${bracketed}:${canary.port}/`).href;
      } catch {
        continue;
      }
      tried++;
      await guardedFetch(url, { timeoutMs: 1000, maxBytes: 1024 }).then(
        () => accepted.push(`fetch: ${host}`),
        (error: unknown) => void (error instanceof AddressRefused || accepted.push(`fetch error: ${host}`)),
      );
    }
    const gotThrough = accepted.length + canary.hits();
    report({
      area: 'SSRF',
      check: 'address spellings',
      tried,
      gotThrough,
      detail: `${hosts.length} spellings as bare host and through PUT /api/servers/{id}/game, ${loopback.length} loopback ones as request URLs`,
    });
    expect(accepted).toEqual([]);
    expect(gotThrough).toBe(0);
  });

  it('DNS rebinding: the connection goes to the address that was checked, or nowhere', async () => {
    const rounds = scale(20, 200);
    let tried = 0;
    let served = 0;
    const before = fivem.requests.length;
    for (let i = 0; i < rounds; i++) {
      tried++;
      await guardedFetch(`http://rebind.example:${fivem.port}/dynamic.json`, {
        timeoutMs: 1500,
        maxBytes: 64 * 1024,
        policy: {
          allowTargets: [`127.0.0.1:${fivem.port}`],
          lookup: async () => [{ address: rebindCalls++ % 2 === 0 ? '127.0.0.1' : '127.0.0.3' }],
        },
      }).then(
        () => served++,
        (error: unknown) => expect(error).toBeInstanceOf(AddressRefused),
      );
    }
    // Through the product: the poller resolves the owner's name once per poll and connects to that answer.
    const server = await createServer(t.app, owner.row.id);
    const polls = scale(6, 40);
    for (let i = 0; i < polls; i++) {
      tried++;
      const res = await setGame(server.id, 'fivem', 'rebind.example', fivem.port);
      // Either answer is fine (the check refused it, or the poll reached the checked server): never the rebound one.
      expect([200, 400]).toContain(res.statusCode);
    }
    const gotThrough = rebound.hits() + canary.hits();
    report({
      area: 'SSRF',
      check: 'DNS rebinding',
      tried,
      gotThrough,
      detail: `${rounds} requests and ${polls} polls of a name answering checked/rebound alternately; ${served} served by the checked address, ${fivem.requests.length - before} requests at the real server`,
    });
    expect(served).toBeGreaterThan(0);
    expect(gotThrough).toBe(0);
  });

  it('oversized and endless answers are cut off', async () => {
    const modes = [{ huge: 8 * 1024 * 1024 }, { huge: 8 * 1024 * 1024, chunked: true }, 'silent' as const, 'drip' as const];
    const rounds = scale(1, 3);
    let tried = 0;
    let gotThrough = 0;
    for (let i = 0; i < rounds; i++) {
      for (const mode of modes) {
        fivem.behave(mode);
        tried++;
        const started = Date.now();
        const outcome = await guardedFetch(`http://127.0.0.1:${fivem.port}/players.json`, {
          timeoutMs: 500,
          maxBytes: 1024 * 1024,
          policy: { allowTargets: [`127.0.0.1:${fivem.port}`] },
        }).then(
          () => 'answered',
          (error: unknown) => (error instanceof OutboundRefused ? error.reason : 'other'),
        );
        if (outcome === 'answered' || Date.now() - started > 1500) gotThrough++;
      }
    }
    fivem.behave('normal');
    report({
      area: 'SSRF',
      check: 'oversized and endless answers',
      tried,
      gotThrough,
      detail: '8 MiB declared/chunked, silent, one byte per 100 ms; cap 1 MiB, deadline 500 ms',
    });
    expect(gotThrough).toBe(0);
  });
});
