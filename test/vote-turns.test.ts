import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawNode, type KyselyPlugin, type OperationNode } from 'kysely';
import { preparedMarker, type DatabaseHandle } from '../src/server/db/database';
import type { BuildOptions } from '../src/server/app';
import { TURN_WAIT_MAX_MS } from '../src/server/plugins/statement-checked-tokens';
import { createTestApp, GENEROUS_LIMITS, type TestApp } from './helpers/test-app';
import { createServer, createUser, loggedOutSession, type TestUser } from './helpers/factories';
import { openTestDatabase } from './helpers/test-db';

/** Holds back the answer of the next like statement until opened. */
class Gate {
  private held: Promise<void> | undefined;
  private reachedBy: () => void = () => undefined;

  /** Closes the gate: `reached` resolves when a like statement's answer waits at it, `open` lets it go. */
  close(): { reached: Promise<void>; open: () => void } {
    let open!: () => void;
    const reached = new Promise<void>((resolve) => (this.reachedBy = resolve));
    this.held = new Promise<void>((resolve) => (open = resolve));
    return {
      reached,
      open: () => {
        this.held = undefined;
        open();
      },
    };
  }

  /** The handle with each like statement's answer passing through the gate. */
  on(handle: DatabaseHandle): DatabaseHandle {
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
        const held = this.held;
        if (likes.has(queryId) && held) {
          this.reachedBy();
          await held;
        }
        return result;
      },
    };
    return { ...handle, db: handle.db.withPlugin(plugin) };
  }
}

/** The app on a real port, its like statements through a gate. */
function gatedApp(build: BuildOptions = {}) {
  const app = { t: undefined as unknown as TestApp, port: 0, gate: new Gate() };
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await openTestDatabase();
    app.t = await createTestApp({ build: { ...build, database: app.gate.on(handle) } });
    await app.t.app.listen({ port: 0, host: '127.0.0.1' });
    app.port = (app.t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app.t?.close();
    await handle?.close();
  });
  return app;
}

/** Writes a whole like to a socket of its own, as raw HTTP/1.1. */
function sendLike(port: number, serverId: number, authorization: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  const body = '{}';
  socket.write(
    `POST /api/servers/${serverId}/like HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  return socket;
}

/** A like by `authorization` that waits for its answer. */
const like = (port: number, serverId: number, authorization: string) =>
  fetch(`http://127.0.0.1:${port}/api/servers/${serverId}/like`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(TURN_WAIT_MAX_MS * 2),
  });

/**
 * A token's votes take turns (a stale token's burst is counted once against its account). A voter
 * whose connection drops while its vote is in flight, after its whole request was sent (a phone
 * that loses the network, a client that gives up), must not hold its next votes: its turn ends
 * once its answer is decided, though the app hears no abort and the answer never arrives.
 */
describe('a token’s turn when its connection is gone', () => {
  const app = gatedApp();
  let voter: TestUser;
  let serverIds: number[];
  beforeAll(async () => {
    const owner = await createUser(app.t.app, { role: 'server_owner' });
    serverIds = await Promise.all([1, 2].map(async (i) => (await createServer(app.t.app, owner.row.id, { name: `Turn ${i}` })).id));
    voter = await createUser(app.t.app);
  });

  it('ends the turn of a vote whose client hung up, so the token’s next vote is answered at once', async () => {
    const gate = app.gate.close();
    const socket = sendLike(app.port, serverIds[0]!, voter.headers.authorization);
    await gate.reached;
    await new Promise((resolve) => socket.destroy().once('close', resolve));
    // Let the app hear the connection go before its answer is written.
    await new Promise((resolve) => setTimeout(resolve, 50));
    gate.open();

    const started = Date.now();
    expect((await like(app.port, serverIds[1]!, voter.headers.authorization)).status).toBe(200);
    // Not held until the safety net lets it go: it waited for no one.
    expect(Date.now() - started).toBeLessThan(TURN_WAIT_MAX_MS / 2);
    // The vote whose client hung up was still cast: its statement had already run.
    const likes = await app.t.app.ctx.db.selectFrom('votes').select('serverId').where('userId', '=', voter.row.id).execute();
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
  const tight = { max: PER_USER, windowMs: 60_000 };
  const app = gatedApp({ rateLimits: { ...GENEROUS_LIMITS, votesPerUser: tight, votesPerUserHour: tight } });
  let serverIds: number[];
  beforeAll(async () => {
    const owner = await createUser(app.t.app, { role: 'server_owner' });
    serverIds = await Promise.all(
      Array.from({ length: 13 }, async (_, i) => (await createServer(app.t.app, owner.row.id, { name: `Burst ${i}` })).id),
    );
  });

  it('counts it once against its account: the owner can still vote', async () => {
    const victim = await createUser(app.t.app);
    const stolen = (await loggedOutSession(app.t.app, victim.row.username)).authorization;
    const hangUpAtOnce = (id: number) => {
      const socket = sendLike(app.port, id, stolen);
      socket.end(() => socket.destroy());
    };

    // The first vote's statement is held while the rest of the burst arrives and hangs up.
    const gate = app.gate.close();
    hangUpAtOnce(serverIds[1]!);
    await gate.reached;
    for (const id of serverIds.slice(2)) hangUpAtOnce(id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    gate.open();
    // One more that waits for its answer: it queues behind the burst's turns.
    expect((await like(app.port, serverIds[0]!, stolen)).status).toBe(401);
    const own = await app.t.app.inject({ method: 'POST', url: `/api/servers/${serverIds[0]}/like`, headers: victim.headers, payload: {} });
    expect(own.statusCode).toBe(200);
  });
});
