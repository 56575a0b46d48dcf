import { afterEach, describe, expect, it } from 'vitest';
import { createServer, createUser } from './helpers/factories';
import { createTestApp, type TestApp } from './helpers/test-app';

/**
 * While an instance drains (SIGTERM), nginx must stop sending to it before it stops accepting;
 * open-source nginx never sees /api/ready, only failed answers. A proxy that passes a GET
 * answered 503 on to another instance says so with `X-Next-Upstream: http_503`: its reads get 503
 * (nginx answers them elsewhere and takes the instance out), its writes are still served. Every
 * other client keeps being served as before (bench/ops runs the real thing under load).
 */
describe('draining behind a proxy that passes a 503 on', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const proxied = { 'x-next-upstream': 'http_503' };

  it("answers the proxy's reads 503 with the connection closing, and serves its writes and every other client's reads", async () => {
    t = await createTestApp();
    const { app } = t;
    const owner = await createUser(app, { role: 'server_owner' });
    const server = await createServer(app, owner.row.id);
    const player = await createUser(app);

    // Before the drain the header changes nothing.
    expect((await app.inject({ method: 'GET', url: '/api/servers', headers: proxied })).statusCode).toBe(200);

    app.drain();
    const read = await app.inject({ method: 'GET', url: `/api/servers/${server.id}`, headers: proxied });
    expect(read.statusCode).toBe(503);
    expect(read.headers.connection).toBe('close');
    expect(read.headers['retry-after']).toBe('1');
    expect(read.json()).toMatchObject({ error: expect.any(String) });
    expect((await app.inject({ method: 'HEAD', url: '/api/servers', headers: proxied })).statusCode).toBe(503);

    // A write the proxy already sent is served: nginx never sends a POST twice.
    const like = await app.inject({
      method: 'POST',
      url: `/api/servers/${server.id}/like`,
      headers: { ...proxied, ...player.headers, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(like.statusCode).toBe(200);
    expect(like.headers.connection).toBe('close');
    const row = await app.ctx.db.selectFrom('servers').select('likes').where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(row.likes).toBe(1);

    // Without the header (a load balancer with health checks, a client on its own) reads are served.
    const direct = await app.inject({ method: 'GET', url: `/api/servers/${server.id}` });
    expect(direct.statusCode).toBe(200);
    expect(direct.headers.connection).toBe('close');
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(503);
  });
});
