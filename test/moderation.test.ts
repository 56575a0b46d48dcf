import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.app, { role: 'admin' });
});
afterAll(() => t.close());

const report = (user: TestUser | undefined, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/reports', headers: user?.headers, payload });
const queue = async () =>
  (await t.app.inject({ url: '/api/admin/reports', headers: admin.headers })).json() as Array<{
    id: string;
    server: { id: string };
    review: { username: string } | null;
    reason: string;
  }>;
const resolve = (id: string, action: string, user: TestUser = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin/reports/${id}/resolve`, headers: user.headers, payload: { action } });

describe('moderation', () => {
  it('hides a reported server from lists, search and the live count', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const name = `Shady ${process.pid}`;
    const server = await createServer(t.app, owner.row.id, { name, currentPlayers: 33 });
    await t.app.ctx.playerCount.refresh();
    const countBefore = t.app.ctx.playerCount.count;
    const player = await createUser(t.app);
    expect((await report(undefined, { serverId: String(server.id), reason: 'Scam' })).statusCode).toBe(401);
    expect((await report(player, { serverId: String(server.id), reason: '  ' })).json()).toMatchObject({ error: 'Tell us what is wrong' });
    const res = await report(player, { serverId: String(server.id), reason: 'Sells <b>fake</b> ranks' });
    expect(res.statusCode).toBe(201);
    const entry = (await queue()).find((r) => r.server.id === String(server.id))!;
    expect(entry).toMatchObject({ reason: 'Sells <b>fake</b> ranks', review: null });
    expect((await resolve(entry.id, 'hide', player)).statusCode).toBe(403);
    expect((await resolve(entry.id, 'hide')).statusCode).toBe(200);
    expect((await resolve(entry.id, 'hide')).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/servers?q=${encodeURIComponent(name)}` })).json()).toEqual([]);
    expect((await t.app.inject({ url: `/api/servers/${server.id}` })).statusCode).toBe(404);
    await t.app.ctx.playerCount.refresh();
    expect(t.app.ctx.playerCount.count).toBe(countBefore - 33);
    expect((await queue()).find((r) => r.id === entry.id)).toBeUndefined();
  });

  it('hides a reported review, or dismisses a report and changes nothing', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const rude = await createUser(t.app);
    const nice = await createUser(t.app);
    await t.app.inject({
      method: 'POST',
      url: `/api/servers/${server.id}/dislike`,
      headers: rude.headers,
      payload: { review: 'Rude words' },
    });
    await t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/like`, headers: nice.headers, payload: { review: 'Nice place' } });
    expect((await report(nice, { serverId: String(server.id), reviewUsername: 'nobody_like_this', reason: 'x' })).statusCode).toBe(404);
    await report(nice, { serverId: String(server.id), reviewUsername: rude.row.username, reason: 'Insults' });
    await report(rude, { serverId: String(server.id), reviewUsername: nice.row.username, reason: 'Revenge' });
    const entries = (await queue()).filter((r) => r.server.id === String(server.id));
    const rudeReport = entries.find((r) => r.review?.username === rude.row.username)!;
    const revenge = entries.find((r) => r.review?.username === nice.row.username)!;
    await resolve(rudeReport.id, 'hide');
    await resolve(revenge.id, 'dismiss');
    const page = (await t.app.inject({ url: `/api/servers/${server.id}` })).json();
    expect(page.reviews.map((r: { review: string }) => r.review)).toEqual(['Nice place']);
    expect(page.reviewsTotal).toBe(1);
    expect(page).toMatchObject({ likes: 1, dislikes: 1 });
    expect((await resolve(revenge.id, 'hide')).statusCode).toBe(404);
    const dismissed = (await t.app.inject({ url: '/api/admin/reports?status=dismissed', headers: admin.headers })).json();
    expect(dismissed.map((r: { id: string }) => r.id)).toContain(revenge.id);
    expect((await resolve(rudeReport.id, 'delete')).statusCode).toBe(400);
  });

  it('keeps the queue for admins', async () => {
    const player = await createUser(t.app);
    expect((await t.app.inject({ url: '/api/admin/reports', headers: player.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/reports' })).statusCode).toBe(401);
  });
});
