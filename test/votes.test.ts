import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const act = (serverId: number | string, action: 'join' | 'like' | 'dislike', headers?: Record<string, string>, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/${action}`, headers, ...(payload ? { payload } : {}) });

async function counters(serverId: number) {
  const db = t.app.ctx.db;
  const server = await db
    .selectFrom('servers')
    .select(['likes', 'dislikes', 'totalJoins'])
    .where('id', '=', serverId)
    .executeTakeFirstOrThrow();
  const votes = await db.selectFrom('votes').select(['type']).where('serverId', '=', serverId).execute();
  const joins = await db.selectFrom('joins').select('id').where('serverId', '=', serverId).execute();
  return {
    server,
    rows: {
      likes: votes.filter((v) => v.type === 'like').length,
      dislikes: votes.filter((v) => v.type === 'dislike').length,
      totalJoins: joins.length,
    },
  };
}

describe('joining and voting', () => {
  it('needs login', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    for (const action of ['join', 'like', 'dislike'] as const) {
      const res = await act(server.id, action);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'You must be logged in to perform this action.' });
    }
  });

  it('joins once and votes once, with the user-facing messages, answering the new counters', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const player = await createUser(t.app);
    const joined = await act(server.id, 'join', player.headers);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ totalJoins: 1, joins: 1 });
    const again = await act(server.id, 'join', player.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'You already joined this server.' });

    const liked = await act(server.id, 'like', player.headers, { review: '  Great staff  ' });
    expect(liked.json()).toMatchObject({ likes: 1, dislikes: 0 });
    expect((await act(server.id, 'like', player.headers)).json()).toMatchObject({ error: 'You already liked this server.' });
    const flip = await act(server.id, 'dislike', player.headers);
    expect(flip.statusCode).toBe(409);
    expect(flip.json()).toMatchObject({ error: 'You already liked this server.' });

    const other = await createUser(t.app);
    expect((await act(server.id, 'dislike', other.headers)).json()).toMatchObject({ likes: 1, dislikes: 1 });
    expect((await act(server.id, 'like', other.headers)).json()).toMatchObject({ error: 'You already disliked this server.' });
    const review = await t.app.ctx.db.selectFrom('votes').select('review').where('userId', '=', player.row.id).executeTakeFirstOrThrow();
    expect(review.review).toBe('Great staff');
  });

  it('limits reviews to 300 characters and keeps them as typed', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const player = await createUser(t.app);
    const long = await act(server.id, 'like', player.headers, { review: 'r'.repeat(301) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ error: 'Review can be at most 300 characters' });
    expect((await act(server.id, 'like', player.headers, { review: 7 })).statusCode).toBe(400);
    const html = '<img src=x onerror=alert(1)>';
    expect((await act(server.id, 'like', player.headers, { review: html })).statusCode).toBe(200);
    const detail = await t.app.inject({ url: `/api/servers/${server.id}` });
    expect(detail.json().reviews[0].review).toBe(html);
    expect((await counters(server.id)).server.likes).toBe(1);
  });

  it('keeps owners off their own server', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    for (const action of ['join', 'like', 'dislike'] as const) {
      const res = await act(server.id, action, owner.headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'You cannot join or vote on your own server.' });
    }
    expect((await act('999999', 'join', owner.headers)).statusCode).toBe(404);
    expect((await act('abc', 'like', owner.headers)).statusCode).toBe(404);
  });

  it('counts exactly one of 50 concurrent likes by one user, and counters equal rows under a mixed crowd', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const player = await createUser(t.app);
    const results = await Promise.all(Array.from({ length: 50 }, () => act(server.id, 'like', player.headers)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(49);

    const crowd = await Promise.all(Array.from({ length: 8 }, () => createUser(t.app)));
    await Promise.all(
      crowd.flatMap((u, i) => [
        act(server.id, 'join', u.headers),
        act(server.id, 'join', u.headers),
        act(server.id, i % 2 ? 'like' : 'dislike', u.headers),
        act(server.id, 'like', u.headers),
      ]),
    );
    const { server: row, rows } = await counters(server.id);
    expect(row).toEqual(rows);
    // Each of the crowd sent two different votes at once: whichever came first counts, once.
    expect(rows.likes + rows.dislikes).toBe(9);
    expect(rows.totalJoins).toBe(8);
  });
});
