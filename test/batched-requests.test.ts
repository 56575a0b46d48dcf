import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD } from './helpers/factories';

/**
 * Requests that arrive together share one query for their users, one statement for their votes
 * and one for the cards they answer. Each must still get exactly its own answer.
 */
describe('requests answered from shared queries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('knows each caller in a crowd, and no one whose session ended or whose account is gone', async () => {
    const crowd = await Promise.all(Array.from({ length: 12 }, () => createUser(t.app)));
    const leaver = await createUser(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: leaver.row.username, password: TEST_PASSWORD },
    });
    const sessionToken = login.json().token as string;
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: `Bearer ${sessionToken}` } });
    const gone = await createUser(t.app);
    await t.app.ctx.db.deleteFrom('users').where('id', '=', gone.row.id).execute();

    const tokens = [...crowd.map((u) => u.token), sessionToken, gone.token];
    const answers = await Promise.all(
      tokens.map((token) => t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${token}` } })),
    );
    expect(answers.slice(0, crowd.length).map((a) => a.json().id)).toEqual(crowd.map((u) => String(u.row.id)));
    expect(answers.slice(crowd.length).map((a) => a.statusCode)).toEqual([401, 401]);
  });

  it('stores each review of a batch exactly as written, whatever characters it holds', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id, { name: 'Review Batch' });
    const reviews = ['NULL', 'He said "hi", {ok} \\ back\\slash', 'it\'s, {a,b} "quoted" }', 'émoji 🎲 and\ttab', '  spaced  '];
    const voters = await Promise.all(reviews.map(() => createUser(t.app)));
    const answers = await Promise.all(
      voters.map((voter, i) =>
        t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/like`, headers: voter.headers, payload: { review: reviews[i] } }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(reviews.map(() => 200));
    for (const [i, voter] of voters.entries()) {
      const row = await t.app.ctx.db
        .selectFrom('votes')
        .select('review')
        .where('userId', '=', voter.row.id)
        .where('serverId', '=', server.id)
        .executeTakeFirstOrThrow();
      expect(row.review).toBe(reviews[i]!.trim() || null);
    }
  });

  it('answers each of many votes at once with its own server’s card, its vote counted once', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const servers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createServer(t.app, owner.row.id, { name: `Batch Target ${i}` })),
    );
    const voters = await Promise.all(Array.from({ length: 6 }, () => createUser(t.app)));
    const votes = servers.flatMap((server, i) =>
      voters.slice(0, i + 1).map((voter) => ({ server: server.id, voter, kind: i % 2 === 0 ? 'like' : 'dislike' })),
    );
    // The same votes twice over: the repeats must answer 409, whichever batch they land in.
    const sent = [...votes, ...votes];
    const answers = await Promise.all(
      sent.map((v) => t.app.inject({ method: 'POST', url: `/api/servers/${v.server}/${v.kind}`, headers: v.voter.headers })),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(votes.length);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(votes.length);
    answers.forEach((answer, i) => {
      if (answer.statusCode === 200) expect(answer.json().id).toBe(String(sent[i]!.server));
      else expect(answer.json().error).toMatch(/^You already (liked|disliked) this server\.$/);
    });
    for (const [i, server] of servers.entries()) {
      const row = await t.app.ctx.db
        .selectFrom('servers')
        .select(['likes', 'dislikes'])
        .where('id', '=', server.id)
        .executeTakeFirstOrThrow();
      expect([row.likes, row.dislikes]).toEqual(i % 2 === 0 ? [i + 1, 0] : [0, i + 1]);
    }
  });

  it('answers each of many daily votes at once with its own month count, each player counted once a day', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const servers = await Promise.all(Array.from({ length: 5 }, (_, i) => createServer(t.app, owner.row.id, { name: `Daily Batch ${i}` })));
    const voters = await Promise.all(Array.from({ length: 5 }, () => createUser(t.app)));
    const votes = servers.flatMap((server, i) => voters.slice(0, i + 1).map((voter) => ({ server: server.id, voter })));
    // The same votes twice over, and the owner on their own server: repeats answer 409, the owner 403.
    const sent = [...votes, ...votes];
    const [answers, own] = await Promise.all([
      Promise.all(
        sent.map((v) => t.app.inject({ method: 'POST', url: `/api/servers/${v.server}/vote`, headers: v.voter.headers, payload: {} })),
      ),
      t.app.inject({ method: 'POST', url: `/api/servers/${servers[0]!.id}/vote`, headers: owner.headers, payload: {} }),
    ]);
    expect(own.statusCode).toBe(403);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(votes.length);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(votes.length);
    answers.forEach((answer, i) => {
      const server = servers.findIndex((s) => s.id === sent[i]!.server);
      if (answer.statusCode === 200) {
        expect(answer.json()).toMatchObject({ status: 'counted' });
        expect(answer.json().monthVotes).toBeGreaterThanOrEqual(1);
        expect(answer.json().monthVotes).toBeLessThanOrEqual(server + 1);
      } else {
        expect(answer.json().error).toMatch(/^You already voted for this server\b/);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(23 * 3600);
      }
    });
    for (const [i, server] of servers.entries()) {
      const row = await t.app.ctx.db.selectFrom('servers').select('monthVotes').where('id', '=', server.id).executeTakeFirstOrThrow();
      const rows = await t.app.ctx.db.selectFrom('dailyVotes').select('id').where('serverId', '=', server.id).execute();
      expect([row.monthVotes, rows.length]).toEqual([i + 1, i + 1]);
    }
  });

  it('counts each of a stream of likes and daily votes once, repeats refused, while they gather behind running statements', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const servers = await Promise.all(
      Array.from({ length: 3 }, (_, i) => createServer(t.app, owner.row.id, { name: `Stream Target ${i}` })),
    );
    const voters = await Promise.all(Array.from({ length: 5 }, () => createUser(t.app)));
    const pairs = servers.flatMap((server) => voters.map((voter) => ({ server: server.id, voter })));
    // Each like and each daily vote twice, a millisecond after the request before: most arrive while
    // a statement runs, so they wait with the others for the next one.
    const sent = pairs.flatMap((p) =>
      (['like', 'vote'] as const).flatMap((kind) => [
        { ...p, kind },
        { ...p, kind },
      ]),
    );
    const answers = await Promise.all(
      sent.map(async (v, i) => {
        await new Promise((resolve) => setTimeout(resolve, i));
        return t.app.inject({ method: 'POST', url: `/api/servers/${v.server}/${v.kind}`, headers: v.voter.headers, payload: {} });
      }),
    );
    for (const kind of ['like', 'vote'] as const) {
      const mine = answers.filter((_, i) => sent[i]!.kind === kind);
      expect(mine.filter((a) => a.statusCode === 200)).toHaveLength(pairs.length);
      expect(mine.filter((a) => a.statusCode === 409)).toHaveLength(pairs.length);
    }
    for (const server of servers) {
      const row = await t.app.ctx.db
        .selectFrom('servers')
        .select(['likes', 'monthVotes'])
        .where('id', '=', server.id)
        .executeTakeFirstOrThrow();
      const likes = await t.app.ctx.db
        .selectFrom('votes')
        .select('id')
        .where('serverId', '=', server.id)
        .where('type', '=', 'like')
        .execute();
      const daily = await t.app.ctx.db.selectFrom('dailyVotes').select('id').where('serverId', '=', server.id).execute();
      expect([row.likes, likes.length, row.monthVotes, daily.length]).toEqual([voters.length, voters.length, voters.length, voters.length]);
    }
  });
});
