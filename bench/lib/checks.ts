import { sql } from 'kysely';
import type { PreparedDatabase } from '../seed/database';
import { checkServerCounters } from '../seed/seed';
import { checkMonthCounters, countDailyRows } from './daily-votes';
import { fmt } from './output';
import type { BenchData } from './targets';
import { countVoterRows } from './votes';

/** What the app answered 2xx and what was sent, per kind of write the run made. */
export interface Sent {
  likes: { accepted: number; sent: number };
  daily: { accepted: number; sent: number };
  views: { accepted: number; sent: number };
}

/**
 * After the app stopped: every counter of every server against its rows (likes, dislikes, joins,
 * boosts, views, and the month's daily votes), and the rows this run wrote against its answers. A
 * request still in flight when a load stopped may have been written unanswered, so each count of
 * new rows must lie between the writes answered 2xx and those sent, never outside.
 */
export async function checkAfterRun(prepared: PreparedDatabase, data: BenchData, sent: Sent) {
  const handle = await prepared.open();
  try {
    const counters = await checkServerCounters(handle.db);
    const months = await checkMonthCounters(handle.db);
    const likes = (await countVoterRows(handle.db, prepared.facts.voterIds)) - data.votersBefore;
    const daily = (await countDailyRows(handle.db, prepared.facts.voterIds)) - data.dailyBefore;
    const views =
      Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM server_views`.execute(handle.db)).rows[0]!.n) - data.viewsBefore;
    const problems: string[] = [];
    if (counters.total > 0) problems.push(`${counters.total} counters differ from their rows:\n    ${counters.problems.join('\n    ')}`);
    if (months.total > 0)
      problems.push(`${months.total} month counters differ from their daily votes:\n    ${months.problems.join('\n    ')}`);
    const within = (what: string, written: number, s: { accepted: number; sent: number }) => {
      if (written < s.accepted || written > s.sent)
        problems.push(`the app accepted ${fmt(s.accepted)} of ${fmt(s.sent)} ${what} sent but ${fmt(written)} were written`);
    };
    within('likes', likes, sent.likes);
    within('daily votes', daily, sent.daily);
    within('counted views', views, sent.views);
    const summary =
      problems.length === 0
        ? `Counters: every likes, dislikes, total_joins, total_boosts, views and month_votes counter equals its rows (${fmt(likes)} likes, ${fmt(daily)} daily votes and ${fmt(views)} views added).`
        : 'Counters: MISMATCH (see below).';
    return { problems, summary, written: { likes, daily, views }, mismatches: counters.total + months.total };
  } finally {
    await handle.close();
  }
}
