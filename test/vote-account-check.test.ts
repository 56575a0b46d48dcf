import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, type TestUser } from './helpers/factories';
import { openTestDatabase } from './helpers/test-db';
import { tallied, type Tally } from './helpers/statement-tally';
import type { DatabaseHandle } from '../src/server/db/database';

/**
 * A like, a dislike and a daily vote check the voter's account inside their own statement instead
 * of in a query of its own before it. Whatever the vote, an account that no longer accepts the token (logged out,
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

  type Kind = 'like' | 'dislike' | 'vote';
  const vote = (headers: object, type: Kind, id = serverId, payload: object = {}) =>
    t.app.inject({ method: 'POST', url: `/api/servers/${id}/${type}`, headers: headers as Record<string, string>, payload });
  const counters = () =>
    t.app.ctx.db.selectFrom('servers').select(['likes', 'dislikes', 'monthVotes']).where('id', '=', serverId).executeTakeFirstOrThrow();
  /** The user's likes, dislikes and daily votes, anywhere. */
  const rows = async (userId: number) =>
    (await t.app.ctx.db.selectFrom('votes').select('id').where('userId', '=', userId).execute()).length +
    (await t.app.ctx.db.selectFrom('dailyVotes').select('id').where('userId', '=', userId).execute()).length;
  const KINDS: Kind[] = ['like', 'dislike', 'vote'];
  const bodyOf = (type: Kind) => (type === 'vote' ? { playerName: 'Steve' } : { review: 'should never be stored' });

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
      for (const type of KINDS) {
        const res = await vote(headers, type, serverId, bodyOf(type));
        expect([who, type, res.statusCode, res.json().error]).toEqual([who, type, 401, MSG.sessionExpired]);
      }
    }
    // Together: the live voters' likes and the stale ones go in the same batches.
    const live = await Promise.all(Array.from({ length: 9 }, () => createUser(t.app)));
    const sent = [...live.map((u) => ({ who: 'live', headers: u.headers })), ...stale, ...stale];
    const kindOf = (i: number) => (i % 2 === 0 ? 'like' : 'dislike');
    const answers = await Promise.all(sent.flatMap(({ headers }, i) => [vote(headers, kindOf(i)), vote(headers, 'vote', serverId, {})]));
    const expected = sent.flatMap(({ who }) => [who, who].map((w) => [w, w === 'live' ? 200 : 401]));
    expect(answers.map((a, i) => [sent[Math.floor(i / 2)]!.who, a.statusCode])).toEqual(expected);
    for (const { id } of stale) expect(await rows(id)).toBe(0);
    const liked = live.filter((_, i) => kindOf(i) === 'like').length;
    expect(await counters()).toEqual({
      likes: before.likes + liked,
      dislikes: before.dislikes + live.length - liked,
      monthVotes: before.monthVotes + live.length,
    });
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
      for (const type of KINDS) {
        for (const [what, res] of [
          ['a missing server', await vote(loggedOut!.headers, type, 999_999_999)],
          ['its own server', await vote(ownerOut, type)],
          ['a review while reviews are off', await vote(loggedOut!.headers, type, serverId, { review: 'hello' })],
        ] as const) {
          expect([type, what, res.statusCode, res.json().error]).toEqual([type, what, 401, MSG.sessionExpired]);
        }
      }
    } finally {
      await toggles(true);
    }
    // A live account is told each of those.
    const live = await createUser(t.app);
    for (const type of KINDS) {
      expect([type, (await vote(live.headers, type, 999_999_999)).statusCode]).toEqual([type, 404]);
      expect([type, (await vote(owner.headers, type)).statusCode]).toEqual([type, 403]);
    }
  });

  it('still refuses an unconfirmed address after the server is found', async () => {
    const unconfirmed = await createUser(t.app, { confirmed: false });
    for (const type of KINDS) {
      expect([type, (await vote(unconfirmed.headers, type, 999_999_999)).statusCode]).toEqual([type, 404]);
      const refused = await vote(unconfirmed.headers, type);
      expect([type, refused.statusCode, refused.json().error]).toEqual([type, 403, MSG.confirmEmailFirst]);
    }
    expect(await rows(unconfirmed.row.id)).toBe(0);
  });

  it('checks the account in the vote’s statement: no sign-in query of its own', async () => {
    const voters = await Promise.all(Array.from({ length: 5 }, () => createUser(t.app)));
    tally.statements.length = 0;
    const answers = await Promise.all(voters.flatMap((v) => [vote(v.headers, 'like'), vote(v.headers, 'vote')]));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    const sent = tally.statements.join(' | ');
    expect(tally.statements.filter((s) => s.includes('prepared:cast-votes')).length, sent).toBeGreaterThan(0);
    expect(tally.statements.filter((s) => s.includes('daily_votes')).length, sent).toBeGreaterThan(0);
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
