import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawNode, type KyselyPlugin, type OperationNode } from 'kysely';
import { preparedMarker, type DatabaseHandle } from '../src/server/db/database';
import { TURN_WAIT_MAX_MS } from '../src/server/plugins/statement-checked-tokens';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
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

/**
 * A token's votes take turns (a stale token's burst is counted once against its account). A voter
 * whose connection drops while its vote is in flight, after its whole request was sent (a phone
 * that loses the network, a client that gives up), must not hold its next votes: its turn ends
 * when the connection goes, though the app hears no abort and sends no answer.
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
