import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';

describe('reviews people can trust', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, user: TestUser, payload: object = {}) => t.app.inject({ method: 'POST', url, headers: user.headers, payload });
  const edit = (serverId: number, user: TestUser | undefined, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/servers/${serverId}/review`, headers: user?.headers ?? {}, payload });

  it('badges reviews of players who joined and lists them first; held and voided votes are not shown', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const [early, joiner, held, voided] = await Promise.all([createUser(t.app), createUser(t.app), createUser(t.app), createUser(t.app)]);
    await post(`/api/servers/${server.id}/like`, early, { review: 'Never played, looks nice' });
    await post(`/api/servers/${server.id}/join`, joiner);
    await post(`/api/servers/${server.id}/like`, joiner, { review: 'Played all week' });
    for (const [user, status] of [
      [held, 'held'],
      [voided, 'voided'],
    ] as const) {
      await post(`/api/servers/${server.id}/like`, user, { review: `bot ${status}` });
      await t.app.ctx.db.updateTable('votes').set({ status }).where('userId', '=', user.row.id).execute();
    }
    // The joined review is newer here; joined first holds whichever is newer.
    await t.app.ctx.db
      .updateTable('votes')
      .set({ createdAt: new Date(Date.now() - 3600_000) })
      .where('userId', '=', joiner.row.id)
      .execute();
    const page = (await t.app.inject({ url: `/api/servers/${server.id}/reviews` })).json();
    expect(page.map((r: { review: string; joined: boolean }) => [r.review, r.joined])).toEqual([
      ['Played all week', true],
      ['Never played, looks nice', false],
    ]);
    const detail = (await t.app.inject({ url: `/api/servers/${server.id}` })).json();
    expect(detail.reviewsTotal).toBe(2);
    expect(detail.reviews[0]).toMatchObject({ joined: true, editedAt: null });
  });

  it('pages through the reviews of players who joined, then the rest, each newest first, across the boundary', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const users = await Promise.all(Array.from({ length: 10 }, () => createUser(t.app)));
    // Users 0–3 joined; user 4's join was voided (not joined); 5–9 never joined. User 9's vote is hidden.
    for (const user of users.slice(0, 5)) expect((await post(`/api/servers/${server.id}/join`, user)).statusCode).toBe(200);
    await t.app.ctx.db.updateTable('joins').set({ status: 'voided' }).where('userId', '=', users[4]!.row.id).execute();
    for (const [i, user] of users.entries()) {
      expect((await post(`/api/servers/${server.id}/like`, user, { review: `review ${i}` })).statusCode).toBe(200);
      // Ages that interleave the two kinds: user i wrote i hours ago, so even ones are newer.
      await t.app.ctx.db
        .updateTable('votes')
        .set({ createdAt: new Date(Date.now() - (i % 2 === 0 ? i : i + 20) * 3600_000) })
        .where('userId', '=', user.row.id)
        .execute();
    }
    await t.app.ctx.db.updateTable('votes').set({ hidden: true }).where('userId', '=', users[9]!.row.id).execute();
    const pages: Array<[string, boolean]> = [];
    for (let offset = 0; offset < 12; offset += 3) {
      const page = await t.app.inject({ url: `/api/servers/${server.id}/reviews?limit=3&offset=${offset}` });
      expect(page.headers['x-total-count']).toBe('9');
      pages.push(...page.json().map((r: { review: string; joined: boolean }): [string, boolean] => [r.review, r.joined]));
    }
    expect(pages).toEqual([
      ['review 0', true],
      ['review 2', true],
      ['review 1', true],
      ['review 3', true],
      ['review 4', false],
      ['review 6', false],
      ['review 8', false],
      ['review 5', false],
      ['review 7', false],
    ]);
  });

  it('lists only votes with a text as reviews; votes without one only count', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const voters = await Promise.all(Array.from({ length: 5 }, () => createUser(t.app)));
    await post(`/api/servers/${server.id}/like`, voters[0]!, { review: 'Great staff' });
    await post(`/api/servers/${server.id}/like`, voters[1]!);
    await post(`/api/servers/${server.id}/dislike`, voters[2]!, { review: '   ' });
    await post(`/api/servers/${server.id}/dislike`, voters[3]!, { review: 'Too laggy' });
    await post(`/api/servers/${server.id}/like`, voters[4]!, { review: '' });
    const detail = (await t.app.inject({ url: `/api/servers/${server.id}` })).json();
    expect(detail).toMatchObject({ likes: 3, dislikes: 2, reviewsTotal: 2 });
    expect(detail.reviews.map((r: { review: string }) => r.review)).toEqual(['Too laggy', 'Great staff']);
    const page = await t.app.inject({ url: `/api/servers/${server.id}/reviews?limit=1&offset=1` });
    expect(page.json().map((r: { review: string }) => r.review)).toEqual(['Great staff']);
    expect(page.headers['x-total-count']).toBe('2');
  });

  it('keeps one review per account and server: it can be edited, never stacked, and only by its author', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const player = await createUser(t.app);
    const other = await createUser(t.app);

    const none = await edit(server.id, player, { review: 'Too early' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ error: 'Like or dislike this server first: your review goes with your vote.' });

    await post(`/api/servers/${server.id}/dislike`, player, { review: 'Laggy' });
    const again = await post(`/api/servers/${server.id}/like`, player, { review: 'Second review' });
    expect(again.statusCode).toBe(409);

    const saved = await edit(server.id, player, { review: '  Fixed now, great staff  ' });
    expect(saved.json()).toEqual({ message: 'Your review is updated.' });
    const reviews = (await t.app.inject({ url: `/api/servers/${server.id}/reviews` })).json();
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({ review: 'Fixed now, great staff', type: 'dislike', editedAt: expect.any(String) });
    const state = (await t.app.inject({ url: `/api/servers/${server.id}`, headers: player.headers })).json().viewer;
    expect(state).toMatchObject({ vote: 'dislike', review: 'Fixed now, great staff' });

    // Someone else's edit touches only their own (missing) vote.
    expect((await edit(server.id, other, { review: 'Hijack' })).statusCode).toBe(404);
    expect((await edit(server.id, undefined, { review: 'Anon' })).statusCode).toBe(401);
    expect((await edit(server.id, player, { review: 'x'.repeat(301) })).json()).toMatchObject({
      error: 'Review can be at most 300 characters',
    });
    expect((await edit(server.id, owner, { review: 'My own' })).statusCode).toBe(403);
    expect((await edit(999_999_999, player, { review: 'Nowhere' })).statusCode).toBe(404);

    // An empty text removes the review from the list; the vote and the counters stay.
    expect((await edit(server.id, player, { review: '' })).statusCode).toBe(200);
    const after = await t.app.inject({ url: `/api/servers/${server.id}/reviews` });
    expect(after.json()).toEqual([]);
    expect(after.headers['x-total-count']).toBe('0');
    expect((await t.app.inject({ url: `/api/servers/${server.id}` })).json()).toMatchObject({ dislikes: 1, likes: 0 });
  });

  it('refuses an edit from an account without a confirmed address, and while reviews are off', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const player = await createUser(t.app);
    await post(`/api/servers/${server.id}/like`, player, { review: 'ok' });
    await t.app.ctx.db.updateTable('users').set({ emailConfirmedAt: null }).where('id', '=', player.row.id).execute();
    expect((await edit(server.id, player, { review: 'changed' })).statusCode).toBe(403);
    await t.app.ctx.db.updateTable('users').set({ emailConfirmedAt: new Date() }).where('id', '=', player.row.id).execute();
    const admin = await createUser(t.app, { role: 'admin' });
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: admin.headers,
      payload: { enableReviews: false },
    });
    expect(off.statusCode).toBe(200);
    try {
      const refused = await edit(server.id, player, { review: 'changed' });
      expect(refused.statusCode).toBe(403);
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin.headers, payload: { enableReviews: true } });
    }
  });
});
