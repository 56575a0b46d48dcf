import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { cachedBody, COMPRESS_MIN_BYTES } from '../src/server/lib/cached-body';
import { createTokenService } from '../src/server/modules/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const like = (serverId: number, headers: Record<string, string>, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/like`, headers, payload });

const voteRows = async (serverId: number) =>
  (await t.app.ctx.db.selectFrom('votes').select('type').where('serverId', '=', serverId).execute()).length;

describe('a vote in one statement', () => {
  it('writes nothing for a hidden server or the voter’s own, and answers as the policy says', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    expect((await like(server.id, owner.headers)).statusCode).toBe(403);
    await t.app.ctx.db.updateTable('servers').set({ hidden: true }).where('id', '=', server.id).execute();
    const player = await createUser(t.app);
    const hidden = await like(server.id, player.headers);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ error: 'Server not found' });
    expect(await voteRows(server.id)).toBe(0);
    const row = await t.app.ctx.db.selectFrom('servers').select(['likes']).where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(row.likes).toBe(0);
  });

  it('refuses a review while reviews are off (404 first for a missing server), and votes without one', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const player = await createUser(t.app);
    await t.app.ctx.settings.update({ enableReviews: false });
    try {
      expect((await like(999_999, player.headers, { review: 'nice' })).statusCode).toBe(404);
      const refused = await like(server.id, player.headers, { review: 'nice' });
      expect(refused.statusCode).toBe(403);
      expect(await voteRows(server.id)).toBe(0);
      expect((await like(server.id, player.headers)).json()).toMatchObject({ likes: 1 });
    } finally {
      await t.app.ctx.settings.update({ enableReviews: true });
    }
  });

  it('keeps counters equal to rows when many users like and dislike at once, twice each', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const crowd = await Promise.all(Array.from({ length: 12 }, () => createUser(t.app)));
    const results = await Promise.all(
      crowd.flatMap((u, i) => [
        like(server.id, u.headers),
        t.app.inject({
          method: 'POST',
          url: `/api/servers/${server.id}/dislike`,
          headers: u.headers,
          payload: i % 3 ? {} : { review: 'ok' },
        }),
      ]),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(12);
    for (const conflict of results.filter((r) => r.statusCode === 409)) {
      expect(['You already liked this server.', 'You already disliked this server.']).toContain(conflict.json().error);
    }
    const votes = await t.app.ctx.db.selectFrom('votes').select('type').where('serverId', '=', server.id).execute();
    const row = await t.app.ctx.db
      .selectFrom('servers')
      .select(['likes', 'dislikes'])
      .where('id', '=', server.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      likes: votes.filter((v) => v.type === 'like').length,
      dislikes: votes.filter((v) => v.type === 'dislike').length,
    });
  });
});

describe('access tokens', () => {
  it('still refuses forged, expired and foreign tokens with the key imported once', async () => {
    const tokens = createTokenService('a-secret-of-at-least-thirty-two-characters!!');
    const good = await tokens.sign({ userId: 7, version: 2, sessionId: 's1' });
    expect(await tokens.verify(good)).toEqual({ userId: 7, version: 2, sessionId: 's1' });
    expect(await tokens.verify(`${good.slice(0, -2)}xx`)).toBeUndefined();
    const other = await createTokenService('another-secret-of-at-least-thirty-two-chars').sign({ userId: 7, version: 2 });
    expect(await tokens.verify(other)).toBeUndefined();
    const expired = await createTokenService('a-secret-of-at-least-thirty-two-characters!!', '-1s').sign({ userId: 7, version: 2 });
    expect(await tokens.verify(expired)).toBeUndefined();
  });
});

describe('cached bodies compress on demand', () => {
  it('makes each encoding once, on first use, and only for big answers', () => {
    const json = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `server ${i}` })) });
    const body = cachedBody(json);
    expect(body.compressible).toBe(true);
    const br = body.encoded('br');
    expect(body.encoded('br')).toBe(br);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(json);
    expect(zlib.gunzipSync(body.encoded('gzip')).toString()).toBe(json);
    expect(cachedBody('x'.repeat(COMPRESS_MIN_BYTES - 10)).compressible).toBe(false);
  });
});
