import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HOLD_RULES } from '../src/server/modules/servers';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { checkCounters } from './hardening/helpers/counters';

/**
 * Random sequences of likes, dislikes, joins and daily votes (from accounts old and new, on
 * networks shared or not, so the hold rules hold some), with admins voiding and releasing random
 * sets of them, always leave every counter equal to the counted rows behind it.
 */
describe('counters equal counted rows under holds, releases and voids', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ build: { holdRules: DEFAULT_HOLD_RULES } });
    admin = await createUser(t.app, { role: 'admin' });
  });
  afterAll(() => t?.close());

  type Step =
    | { kind: 'like' | 'dislike' | 'join' | 'vote'; user: number; server: number; network: number }
    | { kind: 'void' | 'release'; pick: number[]; byAccount: boolean };

  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constantFrom('like' as const, 'dislike' as const, 'join' as const, 'vote' as const),
      user: fc.integer({ min: 0, max: 7 }),
      server: fc.integer({ min: 0, max: 2 }),
      network: fc.integer({ min: 0, max: 2 }),
    }),
    fc.record({
      kind: fc.constantFrom('void' as const, 'release' as const),
      pick: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 6 }),
      byAccount: fc.boolean(),
    }),
  );

  /** Daily votes counted this month against each server's month count. */
  const monthProblems = async () => {
    const month = new Date().toISOString().slice(0, 7);
    const rows = await sql<{ id: number; monthVotes: number; voteMonth: string | null; counted: number }>`
      SELECT s.id, s.month_votes AS "monthVotes", s.vote_month AS "voteMonth",
        (SELECT count(*)::int FROM daily_votes d WHERE d.server_id = s.id AND d.status = 'counted'
           AND to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM') = ${month}) AS counted
      FROM servers s`.execute(t.app.ctx.db);
    return rows.rows
      .filter((r) => (r.voteMonth === month ? r.monthVotes : 0) !== r.counted)
      .map((r) => `server ${r.id}: month votes ${r.monthVotes} but ${r.counted} counted daily votes`);
  };

  it('holds for random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
        const owner = await createUser(t.app, { role: 'server_owner' });
        const servers = await Promise.all([0, 1, 2].map(() => createServer(t.app, owner.row.id)));
        // Half the accounts are minutes old and registered from one network (a burst), half are old.
        const users: TestUser[] = [];
        for (let i = 0; i < 8; i++) {
          const user = await createUser(t.app);
          const young = i % 2 === 0;
          await t.app.ctx.db
            .updateTable('users')
            .set({
              createdAt: new Date(Date.now() - (young ? 5 * 60_000 : 400 * 86_400_000)),
              registeredNetwork: young ? `10.${servers[0]!.id % 250}.7.0/24` : null,
            })
            .where('id', '=', user.row.id)
            .execute();
          users.push(user);
        }
        for (const s of steps) {
          if ('pick' in s) {
            const ids = servers.map((x) => x.id);
            const votes = await t.app.ctx.db
              .selectFrom('votes')
              .select(['id', 'userId'])
              .where('serverId', 'in', ids)
              .orderBy('id')
              .execute();
            const joins = await t.app.ctx.db
              .selectFrom('joins')
              .select(['id', 'userId'])
              .where('serverId', 'in', ids)
              .orderBy('id')
              .execute();
            const daily = await t.app.ctx.db
              .selectFrom('dailyVotes')
              .select(['id', 'userId'])
              .where('serverId', 'in', ids)
              .orderBy('id')
              .execute();
            const all = [
              ...votes.map((v) => ({ ...v, kind: 'vote' })),
              ...joins.map((j) => ({ ...j, kind: 'join' })),
              ...daily.map((d) => ({ ...d, kind: 'daily' })),
            ];
            if (all.length === 0) continue;
            const chosen = [...new Set(s.pick.map((i) => all[i % all.length]!))];
            const body = s.byAccount
              ? { action: s.kind, accountIds: [...new Set(chosen.map((c) => String(c.userId)))] }
              : {
                  action: s.kind,
                  voteIds: chosen.filter((c) => c.kind === 'vote').map((c) => String(c.id)),
                  joinIds: chosen.filter((c) => c.kind === 'join').map((c) => String(c.id)),
                  dailyVoteIds: chosen.filter((c) => c.kind === 'daily').map((c) => String(c.id)),
                };
            const res = await t.app.inject({ method: 'POST', url: '/api/admin/fraud/actions', headers: admin.headers, payload: body });
            expect(res.statusCode, res.body).toBe(200);
          } else {
            const res = await t.app.inject({
              method: 'POST',
              url: `/api/servers/${servers[s.server]!.id}/${s.kind}`,
              headers: users[s.user]!.headers,
              remoteAddress: `10.${servers[0]!.id % 250}.${s.network}.${s.user + 1}`,
              payload: s.kind === 'vote' ? { playerName: 'Steve' } : {},
            });
            expect([200, 409], res.body).toContain(res.statusCode);
          }
        }
        expect(await checkCounters(t.app.ctx.db)).toEqual([]);
        expect(await monthProblems()).toEqual([]);
      }),
      { numRuns: 12 },
    );
  });
});
