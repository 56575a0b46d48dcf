import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawNode, type KyselyPlugin, type OperationNode } from 'kysely';
import { preparedMarker, type DatabaseHandle } from '../src/server/db/database';
import { TURN_WAIT_MAX_MS } from '../src/server/plugins/statement-checked-tokens';
import { createTestApp, GENEROUS_LIMITS, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, type TestUser } from './helpers/factories';
import { openTestDatabase } from './helpers/test-db';

/** Holds the like statement's answer while `held` is set, and says when one arrived there. */
interface Gate {
  held: Promise<void> | undefined;
  reached: () => void;
}

/** The handle with the like statement's answer held back at the gate while it is closed. */
function gated(handle: DatabaseHandle, gate: Gate): DatabaseHandle {
  const marker = preparedMarker('cast-votes');
  // The statement starts with its marker, a raw fragment of its own.
  const isLike = (node: OperationNode) =>
    RawNode.is(node) &&
    [node.sqlFragments[0], ...node.parameters.slice(0, 1).map((p) => (RawNode.is(p) ? p.sqlFragments[0] : ''))].includes(marker);
  const likes = new WeakSet<object>();
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      if (isLike(node)) likes.add(queryId);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (likes.has(queryId) && gate.held) {
        gate.reached();
        await gate.held;
      }
      return result;
    },
  };
  return { ...handle, db: handle.db.withPlugin(plugin) };
}

/** Writes a whole like to a socket of its own and hangs up at once, before any answer. */
function likeAndHangUpAtOnce(port: number, serverId: number, authorization: string): void {
  const socket = net.connect(port, '127.0.0.1');
  const body = '{}';
  socket.on('error', () => undefined);
  socket.end(
    `POST /api/servers/${serverId}/like HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/**
 * A token's votes take turns (a stale token's burst is counted once against its account). A voter
 * whose connection drops while its vote is in flight, after its whole request was sent (a phone
 * that loses the network, a client that gives up), must not hold its next votes: its turn ends
 * once its answer is decided, though the app hears no abort and the answer never arrives.
 */
describe('a token’s turn when its connection is gone', () => {
  let handle: DatabaseHandle;
  const gate: Gate = { held: undefined, reached: () => undefined };
  let t: TestApp;
  let port: number;
  let voter: TestUser;
  let serverIds: number[];
  beforeAll(async () => {
    handle = await openTestDatabase();
    t = await createTestApp({ build: { database: gated(handle, gate) } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    const owner = await createUser(t.app, { role: 'server_owner' });
    serverIds = await Promise.all([1, 2, 3].map(async (i) => (await createServer(t.app, owner.row.id, { name: `Turn ${i}` })).id));
    voter = await createUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await handle?.close();
  });

  /** Sends a whole like over a socket of its own and hangs up while the app is still on it. */
  async function likeAndHangUp(serverId: number): Promise<void> {
    let open!: () => void;
    const reached = new Promise<void>((resolve) => (gate.reached = resolve));
    gate.held = new Promise<void>((resolve) => (open = resolve));
    const socket = net.connect(port, '127.0.0.1');
    const body = '{}';
    socket.write(
      `POST /api/servers/${serverId}/like HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${voter.headers.authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await reached;
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.destroy();
    await closed;
    // Let the app hear the connection go before its answer is written.
    await new Promise((resolve) => setTimeout(resolve, 50));
    gate.held = undefined;
    open();
  }

  it('ends the turn of a vote whose client hung up, so the token’s next vote is answered at once', async () => {
    await likeAndHangUp(serverIds[0]!);
    const started = Date.now();
    const next = await fetch(`http://127.0.0.1:${port}/api/servers/${serverIds[1]}/like`, {
      method: 'POST',
      headers: { ...voter.headers, 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(TURN_WAIT_MAX_MS * 2),
    });
    expect(next.status).toBe(200);
    // Not held until the safety net lets it go: it waited for no one.
    expect(Date.now() - started).toBeLessThan(TURN_WAIT_MAX_MS / 2);
    // The vote whose client hung up was still cast: its statement had already run.
    const likes = await t.app.ctx.db.selectFrom('votes').select('serverId').where('userId', '=', voter.row.id).execute();
    expect(likes.map((v) => v.serverId).sort()).toEqual([serverIds[0], serverIds[1]].sort());
  });
});

/**
 * Hanging up does not end a turn early: a stale token's burst whose every request hangs up at once
 * still goes one request at a time, so only the first reaches the account's vote limits before the
 * statement's refusal is remembered.
 */
describe('a stale token’s burst that hangs up at once', () => {
  const PER_USER = 3;
  let handle: DatabaseHandle;
  const gate: Gate = { held: undefined, reached: () => undefined };
  let t: TestApp;
  let port: number;
  let serverIds: number[];
  beforeAll(async () => {
    handle = await openTestDatabase();
    const tight = { max: PER_USER, windowMs: 60_000 };
    t = await createTestApp({
      build: { database: gated(handle, gate), rateLimits: { ...GENEROUS_LIMITS, votesPerUser: tight, votesPerUserHour: tight } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    const owner = await createUser(t.app, { role: 'server_owner' });
    serverIds = await Promise.all(
      Array.from({ length: 13 }, async (_, i) => (await createServer(t.app, owner.row.id, { name: `Burst ${i}` })).id),
    );
  });
  afterAll(async () => {
    await t?.close();
    await handle?.close();
  });

  it('counts it once against its account: the owner can still vote', async () => {
    const victim = await createUser(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: victim.row.username, password: TEST_PASSWORD },
    });
    const stolen = `Bearer ${login.json().token as string}`;
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: stolen } })).statusCode).toBe(200);

    // The first vote's statement is held while the rest of the burst arrives and hangs up.
    let open!: () => void;
    const reached = new Promise<void>((resolve) => (gate.reached = resolve));
    gate.held = new Promise<void>((resolve) => (open = resolve));
    likeAndHangUpAtOnce(port, serverIds[1]!, stolen);
    await reached;
    for (const id of serverIds.slice(2)) likeAndHangUpAtOnce(port, id, stolen);
    await new Promise((resolve) => setTimeout(resolve, 300));
    gate.held = undefined;
    open();
    // One more that waits for its answer: it queues behind the burst's turns.
    const last = await fetch(`http://127.0.0.1:${port}/api/servers/${serverIds[0]}/like`, {
      method: 'POST',
      headers: { authorization: stolen, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(last.status).toBe(401);
    const own = await t.app.inject({ method: 'POST', url: `/api/servers/${serverIds[0]}/like`, headers: victim.headers, payload: {} });
    expect(own.statusCode).toBe(200);
  });
});
