import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, type TestUser } from './helpers/factories';
import { openTestDatabase } from './helpers/test-db';
import { tallied, type Tally } from './helpers/statement-tally';
import type { DatabaseHandle } from '../src/server/db/database';

/**
 * A like or dislike checks the voter's account inside its own statement instead of in a query of
 * its own before it. Whatever the vote, an account that no longer accepts the token (logged out,
 * password changed, deleted) gets 401 and changes nothing, in a crowd as alone, before anything
 * about the server is told.
 */
describe('the sign-in check made by the vote itself', () => {
  let handle: DatabaseHandle;
  const tally: Tally = { statements: [], transactions: 0 };
  let t: TestApp;
  let serverId: number;
  let owner: TestUser;
  beforeAll(async () => {
    handle = await openTestDatabase();
    t = await createTestApp({ build: { database: tallied(handle, tally) } });
    owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id, { name: 'Checked Votes' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await handle?.close();
  });

  const vote = (headers: object, type: 'like' | 'dislike', id = serverId, payload: object = {}) =>
    t.app.inject({ method: 'POST', url: `/api/servers/${id}/${type}`, headers: headers as Record<string, string>, payload });
  const counters = () =>
    t.app.ctx.db.selectFrom('servers').select(['likes', 'dislikes']).where('id', '=', serverId).executeTakeFirstOrThrow();
  const rows = async (userId: number) =>
    (await t.app.ctx.db.selectFrom('votes').select('id').where('userId', '=', userId).execute()).length;

  /** Three accounts that no longer accept the token each holds: logged out, password changed, deleted. */
  async function staleVoters() {
    const leaver = await createUser(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: leaver.row.username, password: TEST_PASSWORD },
    });
    const loggedOut = { authorization: `Bearer ${login.json().token as string}` };
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: loggedOut })).statusCode).toBe(200);
    // What a password change or reset does to every older token: the version moves on.
    const changed = await createUser(t.app);
    await t.app.ctx.db
      .updateTable('users')
      .set((eb) => ({ tokenVersion: eb('tokenVersion', '+', 1) }))
      .where('id', '=', changed.row.id)
      .execute();
    const gone = await createUser(t.app);
    await t.app.ctx.db.deleteFrom('users').where('id', '=', gone.row.id).execute();
    return [
      { who: 'logged out', id: leaver.row.id, headers: loggedOut },
      { who: 'password changed', id: changed.row.id, headers: changed.headers },
      { who: 'deleted', id: gone.row.id, headers: gone.headers },
    ];
  }

  it('answers 401 to every stale token, alone or among live voters in one statement, and counts only the live ones', async () => {
    const stale = await staleVoters();
    const before = await counters();
    for (const { who, headers } of stale) {
      for (const type of ['like', 'dislike'] as const) {
        const res = await vote(headers, type, serverId, { review: 'should never be stored' });
        expect([who, type, res.statusCode, res.json().error]).toEqual([who, type, 401, MSG.sessionExpired]);
      }
    }
    // Together: the live voters' likes and the stale ones go in the same batches.
    const live = await Promise.all(Array.from({ length: 9 }, () => createUser(t.app)));
    const sent = [...live.map((u) => ({ who: 'live', headers: u.headers })), ...stale, ...stale];
    const answers = await Promise.all(sent.map(({ headers }, i) => vote(headers, i % 2 === 0 ? 'like' : 'dislike')));
    expect(answers.map((a, i) => [sent[i]!.who, a.statusCode])).toEqual(sent.map(({ who }) => [who, who === 'live' ? 200 : 401]));
    for (const { id } of stale) expect(await rows(id)).toBe(0);
    const after = await counters();
    const liked = live.filter((_, i) => i % 2 === 0).length;
    expect(after).toEqual({ likes: before.likes + liked, dislikes: before.dislikes + live.length - liked });
  });

  it('tells a stale token nothing about the server: no 404, no "own server", no "reviews are off"', async () => {
    const [loggedOut] = await staleVoters();
    // Its owner logged out of this session: its own server is no different.
    const ownerLogin = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: owner.row.username, password: TEST_PASSWORD },
    });
    const ownerOut = { authorization: `Bearer ${ownerLogin.json().token as string}` };
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: ownerOut });
    const admin = await createUser(t.app, { role: 'admin' });
    const toggles = (enableReviews: boolean) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin.headers, payload: { enableReviews } });
    try {
      expect((await toggles(false)).statusCode).toBe(200);
      for (const [what, res] of [
        ['a missing server', await vote(loggedOut!.headers, 'like', 999_999_999)],
        ['its own server', await vote(ownerOut, 'like')],
        ['a review while reviews are off', await vote(loggedOut!.headers, 'like', serverId, { review: 'hello' })],
      ] as const) {
        expect([what, res.statusCode, res.json().error]).toEqual([what, 401, MSG.sessionExpired]);
      }
    } finally {
      await toggles(true);
    }
    // A live account is told each of those.
    const live = await createUser(t.app);
    expect((await vote(live.headers, 'like', 999_999_999)).statusCode).toBe(404);
    expect((await vote(owner.headers, 'like')).statusCode).toBe(403);
  });

  it('still refuses an unconfirmed address after the server is found', async () => {
    const unconfirmed = await createUser(t.app, { confirmed: false });
    expect((await vote(unconfirmed.headers, 'like', 999_999_999)).statusCode).toBe(404);
    const refused = await vote(unconfirmed.headers, 'dislike');
    expect([refused.statusCode, refused.json().error]).toEqual([403, MSG.confirmEmailFirst]);
    expect(await rows(unconfirmed.row.id)).toBe(0);
  });

  it('checks the account in the vote’s statement: no sign-in query of its own', async () => {
    const voters = await Promise.all(Array.from({ length: 5 }, () => createUser(t.app)));
    tally.statements.length = 0;
    const answers = await Promise.all(voters.map((v) => vote(v.headers, 'like')));
    expect(answers.map((a) => a.statusCode)).toEqual(voters.map(() => 200));
    const sent = tally.statements.join(' | ');
    expect(tally.statements.filter((s) => s.includes('prepared:cast-votes')).length, sent).toBeGreaterThan(0);
    expect(
      tally.statements.filter((s) => s.includes('prepared:active-users')),
      sent,
    ).toEqual([]);
    // Other signed-in routes still make it.
    tally.statements.length = 0;
    expect((await t.app.inject({ url: '/api/user', headers: voters[0]!.headers })).statusCode).toBe(200);
    expect(tally.statements.filter((s) => s.includes('prepared:active-users')).length, tally.statements.join(' | ')).toBe(1);
  });
});
