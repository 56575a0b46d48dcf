import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefused } from '../src/server/adapters/address-guard';
import { GuardedHttpAgent, GuardedHttpsAgent, guardedFetch, OutboundRefused } from '../src/server/adapters/guarded-http';
import { createPushSender, generateVapidKeys } from '../src/server/adapters/web-push';
import { startCanary } from './helpers/fake-game-servers';
import { startPushEndpoint } from './helpers/push-endpoint';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A local HTTP server whose answer each test sets; it counts the requests it got. */
async function startServer(address = '127.0.0.1', port = 0) {
  let handler: Handler = (_req, res) => res.end('ok');
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, address, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    answer(next: Handler) {
      handler = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error as Error;
  }
};

describe('the guarded HTTP client', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  let base: string;
  let policy: { allowTargets: string[] };
  beforeAll(async () => {
    server = await startServer();
    canary = await startCanary();
    base = `http://127.0.0.1:${server.port}`;
    policy = { allowTargets: [`127.0.0.1:${server.port}`] };
  });
  afterAll(async () => {
    await server.close();
    await canary.close();
  });

  it('never follows a redirect, even to a target it would allow', async () => {
    const allowingCanary = { allowTargets: [...policy.allowTargets, `127.0.0.1:${canary.port}`] };
    for (const status of [301, 302, 303, 307, 308]) {
      for (const location of [`http://127.0.0.1:${canary.port}/`, `http://localhost:${canary.port}/`, '/elsewhere']) {
        server.answer((_req, res) => res.writeHead(status, { location }).end());
        const error = await refusal(guardedFetch(`${base}/start`, { timeoutMs: 2000, maxBytes: 1000, policy: allowingCanary }));
        expect(error, `${status} → ${location}`).toBeInstanceOf(OutboundRefused);
        expect((error as OutboundRefused).reason).toBe('redirect');
      }
    }
    expect(canary.hits()).toBe(0);
    server.answer((_req, res) => res.end('ok'));
    const fine = await guardedFetch(`${base}/`, { timeoutMs: 2000, maxBytes: 1000, policy });
    expect(fine).toMatchObject({ status: 200 });
    expect(fine.body.toString()).toBe('ok');
  });

  it('refuses loopback spellings of the canary before opening any connection', async () => {
    for (const host of ['127.0.0.1', '2130706433', '0177.0.0.1', '127.1', '0x7f.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', 'localhost']) {
      const error = await refusal(guardedFetch(`http://${host}:${canary.port}/`, { timeoutMs: 2000, maxBytes: 1000, policy }));
      expect(error, host).toBeInstanceOf(AddressRefused);
    }
    expect(canary.hits()).toBe(0);
  });

  it('connects to the address it checked: a second DNS answer cannot move it (rebinding)', async () => {
    const target = await startServer('127.0.0.1', 0);
    // The same port on another loopback address: where a rebinding attacker would send the request.
    const rebound = await startCanary('127.0.0.3', target.port);
    let calls = 0;
    // Answers the allowed address first, then the other one: checking and connecting must use one answer.
    const lookup = async () => [{ address: calls++ % 2 === 0 ? '127.0.0.1' : '127.0.0.3' }];
    const rebindPolicy = { allowTargets: [`127.0.0.1:${target.port}`], lookup };
    let served = 0;
    for (let i = 0; i < 6; i++) {
      const error = await refusal(
        guardedFetch(`http://game.rebind.test:${target.port}/`, { timeoutMs: 2000, maxBytes: 1000, policy: rebindPolicy }).then(() => {
          served++;
        }),
      );
      if (error) expect(error).toBeInstanceOf(AddressRefused);
    }
    expect(served).toBe(3);
    expect(target.requests()).toBe(3);
    expect(calls).toBe(6);
    expect(rebound.hits()).toBe(0);
    // A name with one checked and one unchecked address is refused outright.
    const both = { allowTargets: [`127.0.0.1:${target.port}`], lookup: async () => [{ address: '127.0.0.1' }, { address: '127.0.0.3' }] };
    expect(
      await refusal(guardedFetch(`http://game.rebind.test:${target.port}/`, { timeoutMs: 2000, maxBytes: 1000, policy: both })),
    ).toBeInstanceOf(AddressRefused);
    await rebound.close();
    await target.close();
  });

  it('aborts an answer bigger than the cap, declared or not', async () => {
    for (const chunked of [false, true]) {
      let written = 0;
      server.answer((_req, res) => {
        res.writeHead(200, chunked ? {} : { 'content-length': String(8 * 1024 * 1024) });
        const piece = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (written < 8 * 1024 * 1024 && !res.destroyed) {
            written += piece.length;
            if (!res.write(piece)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
      });
      const error = await refusal(guardedFetch(`${base}/huge`, { timeoutMs: 5000, maxBytes: 256 * 1024, policy }));
      expect(error, `chunked: ${chunked}`).toBeInstanceOf(OutboundRefused);
      expect((error as OutboundRefused).reason).toBe('too-large');
    }
  });

  it('gives up on a silent or dripping server at the deadline', async () => {
    const timers = new Set<NodeJS.Timeout>();
    for (const mode of ['silent', 'drip']) {
      server.answer((_req, res) => {
        if (mode === 'silent') return;
        res.writeHead(200);
        const timer = setInterval(() => res.write('.'), 50);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
      });
      const started = Date.now();
      const error = await refusal(guardedFetch(`${base}/slow`, { timeoutMs: 400, maxBytes: 1000 * 1000, policy }));
      expect(error, mode).toBeInstanceOf(OutboundRefused);
      expect((error as OutboundRefused).reason).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(1500);
    }
    for (const timer of timers) clearInterval(timer);
  });

  it('caps and times out each connection of a guarded agent, for packages that read answers themselves', async () => {
    server.answer((_req, res) => {
      res.on('error', () => undefined);
      res.end(Buffer.alloc(1024 * 1024, 0x61));
    });
    const get = (agent: http.Agent) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(`${base}/`, { agent }, (res) => {
          let size = 0;
          res.on('data', (chunk: Buffer) => (size += chunk.length));
          res.on('end', () => resolve(size));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
    const capped = await refusal(get(new GuardedHttpAgent(policy, { maxResponseBytes: 64 * 1024 })));
    expect((capped as OutboundRefused).reason).toBe('too-large');
    server.answer(() => undefined);
    const started = Date.now();
    const stuck = await refusal(get(new GuardedHttpAgent(policy, { maxConnectionMs: 300 })));
    expect((stuck as OutboundRefused).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('takes plain http(s) URLs only', async () => {
    for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd', `http://user:pw@127.0.0.1:${server.port}/`, 'not a url']) {
      const error = await refusal(guardedFetch(url, { timeoutMs: 500, maxBytes: 100, policy }));
      expect((error as OutboundRefused).reason, url).toBe('bad-url');
    }
  });
});

describe('web push through the guarded agent', () => {
  let endpoint: Awaited<ReturnType<typeof startPushEndpoint>>;
  const keys = { ...generateVapidKeys(), subject: 'mailto:ops@example.com' };
  beforeAll(async () => {
    endpoint = await startPushEndpoint();
  });
  afterAll(async () => endpoint.close());

  it('delivers to the endpoint the test allows, and refuses a loopback endpoint otherwise without connecting', async () => {
    const sub = endpoint.subscription();
    const target = { endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth };
    expect(await createPushSender(keys, endpoint.agent).send(target, { title: 'hi' }, 60)).toBe('sent');
    expect(sub.received).toEqual([{ title: 'hi' }]);
    const before = endpoint.connections();
    // Same trust, no allowance: the address guard stops it before a connection is opened.
    const unallowed = createPushSender(keys, new GuardedHttpsAgent({}, { ca: endpoint.cert }));
    expect(await unallowed.send(target, { title: 'again' }, 60)).toBe('failed');
    expect(await createPushSender(keys).send(target, { title: 'again' }, 60)).toBe('failed');
    expect(endpoint.connections()).toBe(before);
    expect(sub.received).toHaveLength(1);
  });

  it('takes only guarded agents', () => {
    expect(() => createPushSender(keys, new (class extends http.Agent {})() as never)).toThrow(/GuardedHttpsAgent/);
  });
});
