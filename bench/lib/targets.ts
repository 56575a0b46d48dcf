import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { PreparedDatabase } from '../seed/database';
import { ROOT } from './app-process';
import { countVoterRows } from './votes';
import { countDailyRows, resetDailyVotes } from './daily-votes';

/** What the measured requests need from the seeded data, read before the app starts (the embedded database takes one process at a time). */
export interface BenchData {
  /** Listed servers' ids, in order. */
  visible: number[];
  /** A listed server with a few reviews: its page is a hot read. */
  reviewed: number;
  /** Votes the seed's voters had before this run. */
  votersBefore: number;
  /** Daily votes the seed's voters had before this run (an earlier run's are removed first). */
  dailyBefore: number;
  /** The ten most-voted listed servers, as the seed recorded them: a campaign's. */
  topVoted: number[];
  /** Server views counted before this run. */
  viewsBefore: number;
}

export async function readBenchData(prepared: PreparedDatabase): Promise<BenchData> {
  const handle = await prepared.open();
  try {
    const visible = (await sql<{ id: number }>`SELECT id FROM servers WHERE NOT hidden ORDER BY id`.execute(handle.db)).rows.map((r) =>
      Number(r.id),
    );
    const withReviews = await sql<{ id: number }>`
      SELECT v.server_id AS id FROM votes v JOIN servers s ON s.id = v.server_id AND NOT s.hidden
      WHERE v.review IS NOT NULL AND NOT v.hidden GROUP BY v.server_id HAVING count(*) >= 3 ORDER BY count(*) DESC, v.server_id LIMIT 1 OFFSET 20`.execute(
      handle.db,
    );
    const reviewed = Number(withReviews.rows[0]?.id ?? visible[0]);
    const removed = await resetDailyVotes(handle.db, prepared.facts.voterIds);
    if (removed > 0) console.log(`Removed ${removed} daily votes of an earlier run (a voter votes once a day per server).`);
    const views = await sql<{ n: number }>`SELECT count(*)::int AS n FROM server_views`.execute(handle.db);
    return {
      visible,
      reviewed,
      votersBefore: await countVoterRows(handle.db, prepared.facts.voterIds),
      dailyBefore: await countDailyRows(handle.db, prepared.facts.voterIds),
      topVoted: prepared.facts.topVoted,
      viewsBefore: Number(views.rows[0]!.n),
    };
  } finally {
    await handle.close();
  }
}

/** The hot reads: home feeds, the list's tabs, categories, player count, a server page and `/`. */
export function hotReads(reviewed: number): Array<{ target: string; path: string }> {
  const reads = [
    { target: 'home: just joined', path: '/api/servers/just-joined' },
    { target: 'home: top 10', path: '/api/servers?sort=likes&limit=10' },
    { target: 'home: server of the weekend', path: '/api/server-of-the-weekend' },
    { target: '/list default (Most liked)', path: '/api/servers' },
    // As the web app asks: it adds its timestamp to every call.
    { target: '/list as the web app asks (t=…)', path: '/api/servers?t=1764400000000' },
    { target: '/list Hot', path: '/api/servers?sort=hot' },
    { target: '/list Most Popular', path: '/api/servers?sort=popular' },
    { target: 'filter categories', path: '/api/filters/categories' },
    { target: 'player count', path: '/api/player-count' },
    { target: 'server page (with reviews)', path: `/api/servers/${reviewed}` },
  ];
  // The page needs the web build (`npm run build`); without it the app has no `/` to serve.
  if (fs.existsSync(path.join(ROOT, 'dist', 'web', 'index.html'))) reads.push({ target: '/ (HTML)', path: '/' });
  else console.log('No web build (dist/web): `/` left out.');
  return reads;
}
