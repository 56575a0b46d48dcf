import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { file, makeImage, multipart, type Part } from './helpers/multipart';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const put = (headers: Record<string, string>, id: number | string, parts: Part[]) => {
  const body = multipart(parts);
  return t.app.inject({ method: 'PUT', url: `/api/players/${id}`, headers: { ...headers, ...body.headers }, payload: body.payload });
};

describe('player profiles (/players/{id})', () => {
  it('shows joined servers, votes and boosts given', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const a = await createServer(t.app, owner.row.id, { name: 'Joined One' });
    const b = await createServer(t.app, owner.row.id, { name: 'Joined Two' });
    const player = await createUser(t.app);
    for (const [id, action] of [
      [a.id, 'join'],
      [b.id, 'join'],
      [a.id, 'like'],
      [b.id, 'dislike'],
    ] as const) {
      expect((await t.app.inject({ method: 'POST', url: `/api/servers/${id}/${action}`, headers: player.headers })).statusCode).toBe(200);
    }
    await t.app.ctx.db.insertInto('boosts').values({ serverId: a.id, userId: player.row.id, source: 'player', amount: 1 }).execute();
    const res = await t.app.inject({ url: `/api/players/${player.row.id}`, headers: player.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: String(player.row.id),
      username: player.row.username,
      likesGiven: 1,
      dislikesGiven: 1,
      boostsGiven: 1,
      boostedServers: [{ id: String(a.id), name: 'Joined One' }],
    });
    expect(
      res
        .json()
        .joinedServers.map((s: { name: string }) => s.name)
        .sort(),
    ).toEqual(['Joined One', 'Joined Two']);
  });

  it('is readable and editable by that user only', async () => {
    const player = await createUser(t.app);
    const other = await createUser(t.app);
    expect((await t.app.inject({ url: `/api/players/${player.row.id}`, headers: other.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/players/${player.row.id}` })).statusCode).toBe(401);
    expect((await put(other.headers, player.row.id, [{ name: 'displayName', value: 'Hacked' }])).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/players/abc', headers: player.headers })).statusCode).toBe(404);
    const row = await t.app.ctx.db.selectFrom('users').select('displayName').where('id', '=', player.row.id).executeTakeFirstOrThrow();
    expect(row.displayName).toBe('');
  });

  it('updates the display name (1 to 50) and the picture, deleting the old picture file', async () => {
    const player = await createUser(t.app);
    const long = await put(player.headers, player.row.id, [{ name: 'displayName', value: 'd'.repeat(51) }]);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ error: 'Display name can be at most 50 characters' });
    expect((await put(player.headers, player.row.id, [{ name: 'displayName', value: '   ' }])).json()).toMatchObject({
      error: 'Display name cannot be empty',
    });

    const first = await put(player.headers, player.row.id, [
      { name: 'displayName', value: '<b>Neo</b>' },
      file('profilePic', await makeImage('jpeg', 500, 500), 'me.jpg', 'image/jpeg'),
    ]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ displayName: '<b>Neo</b>' });
    const picture = first.json().profilePicture as string;
    expect(picture).toMatch(/^\/uploads\/avatars\/[0-9a-f]{24}\.webp$/);
    expect(first.json().profilePic).toBe(picture);

    const second = await put(player.headers, player.row.id, [file('profilePic', await makeImage())]);
    expect(second.json().displayName).toBe('<b>Neo</b>');
    expect(fs.existsSync(path.join(t.dataDir, 'uploads', picture.replace('/uploads/', '')))).toBe(false);
    const me = await t.app.inject({ url: '/api/user', headers: player.headers });
    expect(me.json()).toMatchObject({ displayName: '<b>Neo</b>', profilePicture: second.json().profilePicture });

    const bad = await put(player.headers, player.row.id, [
      file('profilePic', Buffer.from('GIF89a but not really an image at all'), 'x.gif', 'image/gif'),
    ]);
    expect(bad.statusCode).toBe(400);
  });
});
