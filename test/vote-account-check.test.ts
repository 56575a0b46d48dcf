import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages';
import { createTestApp, GENEROUS_LIMITS, type TestApp } from './helpers/test-app';
import { createServer, createUser, loggedOutSession, TEST_PASSWORD, type TestUser } from './helpers/factories';
import { useTalliedApp } from './helpers/tallied-app';

/** Runs `body` with an admin setting switched (reviews, maintenance), and switches it back. */
async function withSetting(t: TestApp, setting: 'enableReviews' | 'maintenanceMode', value: boolean, body: () => Promise<void>) {
  const admin = await createUser(t.app, { role: 'admin' });
  const put = (to: boolean) =>
    t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin.headers, payload: { [setting]: to } });
  expect((await put(value)).statusCode).toBe(200);
  try {
    await body();
  } finally {
    await put(!value);
  }
}

/**
 * A like, a dislike, a daily vote and a join check the voter's account inside their own statement
 * instead of in a query of its own before it. Whatever the vote, an account that no longer accepts the token (logged out,
 * password changed, deleted) gets 401 and changes nothing, in a crowd as alone, before anything
 * about the server is told.
 */
describe('the sign-in check made by the vote itself', () => {
  const setup = useTalliedApp();
  let serverId: number;
  let hiddenId: number;
  beforeAll(async () => {
    serverId = (await createServer(setup.t.app, setup.owner.row.id, { name: 'Checked Votes' })).id;
    hiddenId = (await createServer(setup.t.app, setup.owner.row.id, { name: 'Hidden Votes' })).id;
    await setup.t.app.ctx.db.updateTable('servers').set({ hidden: true }).where('id', '=', hiddenId).execute();
  });

  type Kind = 'like' | 'dislike' | 'vote' | 'join';
  /** A vote from `from` (its /24 is the network the hold rules and the batches' keys see). */
  const vote = (headers: object, type: Kind, id = serverId, payload: object = {}, from = '127.0.0.1') =>
    setup.t.app.inject({
      method: 'POST',
      url: `/api/servers/${id}/${type}`,
      headers: headers as Record<string, string>,
      payload,
      remoteAddress: from,
    });
  const counters = () =>
    setup.t.app.ctx.db
      .selectFrom('servers')
      .select(['likes', 'dislikes', 'monthVotes', 'totalJoins'])
      .where('id', '=', serverId)
      .executeTakeFirstOrThrow();
  /** The user's likes, dislikes, daily votes and joins, anywhere. */
  const rows = async (userId: number) =>
    (await setup.t.app.ctx.db.selectFrom('votes').select('id').where('userId', '=', userId).execute()).length +
    (await setup.t.app.ctx.db.selectFrom('dailyVotes').select('id').where('userId', '=', userId).execute()).length +
    (await setup.t.app.ctx.db.selectFrom('joins').select('id').where('userId', '=', userId).execute()).length;
  const KINDS: Kind[] = ['like', 'dislike', 'vote', 'join'];
  const bodyOf = (type: Kind) => (type === 'vote' ? { playerName: 'Steve' } : type === 'join' ? {} : { review: 'should never be stored' });

  /**
   * Each stale token is used once where the statement's refusal is tested: once refused, a token
   * is refused before the statement from then on.
   */
  const loggedOutToken = (username: string) => loggedOutSession(setup.t.app, username);

  /** Three accounts that no longer accept the token each holds: logged out, password changed, deleted. */
  async function staleVoters() {
    const leaver = await createUser(setup.t.app);
    // A password change ends every older token.
    const changed = await createUser(setup.t.app);
    const change = await setup.t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: changed.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'another-horse-battery-9' },
    });
    expect(change.statusCode).toBe(200);
    const gone = await createUser(setup.t.app);
    await setup.t.app.ctx.db.deleteFrom('users').where('id', '=', gone.row.id).execute();
    return [
      { who: 'logged out', id: leaver.row.id, headers: await loggedOutToken(leaver.row.username) },
      { who: 'password changed', id: changed.row.id, headers: changed.headers },
      { who: 'deleted', id: gone.row.id, headers: gone.headers },
    ];
  }

  it('answers 401 to every stale token, alone or among live voters in one statement, and counts only the live ones', async () => {
    const before = await counters();
    const refused: number[] = [];
    for (const type of KINDS) {
      for (const { who, id, headers } of await staleVoters()) {
        const res = await vote(headers, type, serverId, bodyOf(type));
        expect([who, type, res.statusCode, res.json().error]).toEqual([who, type, 401, MSG.sessionExpired]);
        refused.push(id);
      }
    }
    // Together, each from its own network (one network's votes on a server never share a
    // statement): live voters' votes and stale tokens never used before go in the same statements.
    const live = await Promise.all(Array.from({ length: 9 }, () => createUser(setup.t.app)));
    const kindOf = (i: number): Kind => (i % 2 === 0 ? 'like' : 'dislike');
    const staleLikes = await staleVoters();
    const staleDaily = await staleVoters();
    const sent = [
      ...live.flatMap((u, i) => [
        { who: 'live', headers: u.headers, type: kindOf(i) },
        { who: 'live', headers: u.headers, type: 'vote' as Kind },
      ]),
      ...staleLikes.map((v, i) => ({ ...v, type: kindOf(i) })),
      ...staleDaily.map((v) => ({ ...v, type: 'vote' as Kind })),
    ];
    setup.tally.statements.length = 0;
    const answers = await Promise.all(sent.map(({ headers, type }, i) => vote(headers, type, serverId, {}, `198.51.${i}.7`)));
    expect(answers.map((a, i) => [sent[i]!.who, sent[i]!.type, a.statusCode])).toEqual(
      sent.map(({ who, type }) => [who, type, who === 'live' ? 200 : 401]),
    );
    const statements = (marker: string) => setup.tally.statements.filter((text) => text.includes(marker)).length;
    expect(statements('prepared:cast-votes'), 'likes and dislikes shared statements').toBeLessThan(live.length + staleLikes.length);
    expect(statements('cast_daily_votes'), 'daily votes shared statements').toBeLessThan(live.length + staleDaily.length);
    for (const id of [...refused, ...[...staleLikes, ...staleDaily].map((v) => v.id)]) expect(await rows(id)).toBe(0);
    const liked = live.filter((_, i) => kindOf(i) === 'like').length;
    expect(await counters()).toEqual({
      likes: before.likes + liked,
      dislikes: before.dislikes + live.length - liked,
      monthVotes: before.monthVotes + live.length,
      totalJoins: before.totalJoins,
    });
  });

  it('tells a stale token nothing about the server: no 404, no "own server", no "reviews are off"', async () => {
    const leaver = await createUser(setup.t.app);
    await withSetting(setup.t, 'enableReviews', false, async () => {
      for (const type of KINDS) {
        // A token of its own for each case: each is refused by the vote's statement, not by the hook.
        const cases: Array<[string, Awaited<ReturnType<typeof vote>>]> = [
          ['a missing server', await vote(await loggedOutToken(leaver.row.username), type, 999_999_999)],
          ['a hidden server', await vote(await loggedOutToken(leaver.row.username), type, hiddenId)],
          ['its own server', await vote(await loggedOutToken(setup.owner.row.username), type)],
        ];
        // Daily votes and joins carry no review.
        if (type === 'like' || type === 'dislike') {
          cases.push([
            'a review while reviews are off',
            await vote(await loggedOutToken(leaver.row.username), type, serverId, { review: 'hi' }),
          ]);
        }
        for (const [what, res] of cases) {
          expect([type, what, res.statusCode, res.json().error]).toEqual([type, what, 401, MSG.sessionExpired]);
        }
      }
    });
    // A live account is told each of those.
    const live = await createUser(setup.t.app);
    for (const type of KINDS) {
      expect([type, (await vote(live.headers, type, 999_999_999)).statusCode]).toEqual([type, 404]);
      expect([type, (await vote(live.headers, type, hiddenId)).statusCode]).toEqual([type, 404]);
      expect([type, (await vote(setup.owner.headers, type)).statusCode]).toEqual([type, 403]);
    }
  });

  it('answers a stale token 401 in maintenance mode too, where a live account gets 503', async () => {
    const leaver = await createUser(setup.t.app);
    const live = await createUser(setup.t.app);
    await withSetting(setup.t, 'maintenanceMode', true, async () => {
      for (const type of KINDS) {
        expect([type, (await vote(await loggedOutToken(leaver.row.username), type)).statusCode]).toEqual([type, 401]);
        expect([type, (await vote(live.headers, type)).statusCode]).toEqual([type, 503]);
      }
    });
  });

  it('still refuses an unconfirmed address after the server is found', async () => {
    const unconfirmed = await createUser(setup.t.app, { confirmed: false });
    for (const type of KINDS) {
      expect([type, (await vote(unconfirmed.headers, type, 999_999_999)).statusCode]).toEqual([type, 404]);
      expect([type, (await vote(unconfirmed.headers, type, hiddenId)).statusCode]).toEqual([type, 404]);
      const refused = await vote(unconfirmed.headers, type);
      expect([type, refused.statusCode, refused.json().error]).toEqual([type, 403, MSG.confirmEmailFirst]);
    }
    expect(await rows(unconfirmed.row.id)).toBe(0);
  });

  it('checks the account in the vote’s statement: no sign-in query of its own', async () => {
    const voters = await Promise.all(Array.from({ length: 5 }, () => createUser(setup.t.app)));
    setup.tally.statements.length = 0;
    const answers = await Promise.all(voters.flatMap((v) => [vote(v.headers, 'like'), vote(v.headers, 'vote'), vote(v.headers, 'join')]));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    const sent = setup.tally.statements.join(' | ');
    expect(setup.tally.statements.filter((s) => s.includes('prepared:cast-votes')).length, sent).toBeGreaterThan(0);
    expect(setup.tally.statements.filter((s) => s.includes('daily_votes')).length, sent).toBeGreaterThan(0);
    expect(setup.tally.statements.filter((s) => s.includes('prepared:cast-join')).length, sent).toBe(voters.length);
    expect(
      setup.tally.statements.filter((s) => s.includes('prepared:active-users')),
      sent,
    ).toEqual([]);
    // Other signed-in routes still make it.
    setup.tally.statements.length = 0;
    expect((await setup.t.app.inject({ url: '/api/user', headers: voters[0]!.headers })).statusCode).toBe(200);
    expect(setup.tally.statements.filter((s) => s.includes('prepared:active-users')).length, setup.tally.statements.join(' | ')).toBe(1);
  });
});

describe('a stale token and its account’s vote limits', () => {
  const PER_USER = 3;
  let t: TestApp;
  let serverIds: number[];
  beforeAll(async () => {
    const tight = { max: PER_USER, windowMs: 60_000 };
    t = await createTestApp({ build: { rateLimits: { ...GENEROUS_LIMITS, votesPerUser: tight, votesPerUserHour: tight } } });
    const owner = await createUser(t.app, { role: 'server_owner' });
    serverIds = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => (await createServer(t.app, owner.row.id, { name: `Limited ${i}` })).id),
    );
  });
  afterAll(() => t?.close());

  /** An account and a token of one of its sessions that was then logged out. */
  async function victimAndStolenToken() {
    const victim = await createUser(t.app);
    const stolen = await loggedOutSession(t.app, victim.row.username);
    return { victim, stolen };
  }
  const post = (url: string, headers: Record<string, string>, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  /** The victim can still vote: the stolen token used at most one of its account's few votes a minute. */
  const stillVotes = async (victim: TestUser) =>
    expect((await post(`/api/servers/${serverIds[0]}/like`, victim.headers)).statusCode).toBe(200);

  it('counts a logged-out token once against its account, however many votes it sends one after another', async () => {
    const { victim, stolen } = await victimAndStolenToken();
    const answers = [];
    for (const id of serverIds) {
      for (const type of ['like', 'vote', 'join'] as const) answers.push((await post(`/api/servers/${id}/${type}`, stolen)).statusCode);
    }
    expect(answers).toEqual(answers.map(() => 401));
    await stillVotes(victim);
  });

  it('counts a burst of them sent at once only once', async () => {
    const { victim, stolen } = await victimAndStolenToken();
    const answers = await Promise.all(
      serverIds.flatMap((id) => (['like', 'dislike', 'vote', 'join'] as const).map((type) => post(`/api/servers/${id}/${type}`, stolen))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 401));
    await stillVotes(victim);
  });

  it('counts it once when it sends reviews while reviews are off (refused before the vote)', async () => {
    const { victim, stolen } = await victimAndStolenToken();
    await withSetting(t, 'enableReviews', false, async () => {
      const answers = [];
      for (const id of serverIds) answers.push((await post(`/api/servers/${id}/like`, stolen, { review: 'x' })).statusCode);
      expect(answers).toEqual(answers.map(() => 401));
    });
    await stillVotes(victim);
  });

  it('lets one token’s votes sent at once all count, one after another', async () => {
    const voter = await createUser(t.app);
    const answers = await Promise.all(serverIds.slice(0, PER_USER).map((id) => post(`/api/servers/${id}/like`, voter.headers)));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
  });
});
