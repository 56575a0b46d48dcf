import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { rareWords } from './words';
import { RARE_WORD_COUNT } from './seed';

/** Percentiles as the report prints them. */
type Spread = { p10: number; p50: number; p90: number; p99: number; max: number };

/** The shape of a seeded database: what the generator is meant to skew, measured on its rows. */
export interface SeedShape {
  servers: number;
  votesPerServer: Spread & { top10Share: number; over10k: number; top10: number[] };
  /** The most common words of names and how many servers each is in (as a word; `contains`: as the search matches it, anywhere in the name). */
  nameWords: Array<{ word: string; servers: number; contains: number }>;
  /** Servers a word of the search mix's rare tail is in, over those words. */
  rareTailServers: Spread;
  wordsPerName: Record<string, number>;
  bioLength: Spread;
  statusLength: Spread;
  filtersPerServer: { average: number; counts: Record<string, number>; mostUsed: number; leastUsed: number };
  reviews: { share: number; length: Spread };
  networks: { votes: number; ipv4: number; ipv6: number; registered: number; biggestShare: number };
}

const spread = (column: string, from: string) => `
  SELECT percentile_disc(0.1) WITHIN GROUP (ORDER BY ${column}) AS p10, percentile_disc(0.5) WITHIN GROUP (ORDER BY ${column}) AS p50,
    percentile_disc(0.9) WITHIN GROUP (ORDER BY ${column}) AS p90, percentile_disc(0.99) WITHIN GROUP (ORDER BY ${column}) AS p99,
    max(${column}) AS max FROM ${from}`;

async function one<T>(db: Kysely<Database>, query: string): Promise<T> {
  const row = (await sql.raw(query).execute(db)).rows[0] as Record<string, unknown>;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? 0 : Number(v)])) as T;
}

/** Measures the seeded rows (a few seconds at full size on PostgreSQL). */
export async function measureShape(db: Kysely<Database>): Promise<SeedShape> {
  const votes = await one<Spread & { total: number; top: number; over10k: number; servers: number }>(
    db,
    `
      WITH v AS (SELECT likes + dislikes AS n FROM servers)
      SELECT percentile_disc(0.1) WITHIN GROUP (ORDER BY n) AS p10, percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS p50,
        percentile_disc(0.9) WITHIN GROUP (ORDER BY n) AS p90, percentile_disc(0.99) WITHIN GROUP (ORDER BY n) AS p99, max(n) AS max,
        sum(n) AS total, (SELECT sum(n) FROM (SELECT n FROM v ORDER BY n DESC LIMIT 10) t) AS top,
        count(*) FILTER (WHERE n >= 10000) AS over10k, count(*) AS servers FROM v`,
  );
  const top10 = await sql<{ n: number }>`SELECT likes + dislikes AS n FROM servers ORDER BY n DESC LIMIT 10`.execute(db);
  const words = await sql<{ word: string; servers: number }>`
    SELECT word, count(DISTINCT id)::int AS servers FROM servers, regexp_split_to_table(lower(name), '\\s+') AS word
    GROUP BY word ORDER BY servers DESC, word LIMIT 10`.execute(db);
  const nameWords = [];
  for (const w of words.rows) {
    const contains = await sql<{ n: number }>`SELECT count(*)::int AS n FROM servers WHERE lower(name) LIKE ${`%${w.word}%`}`.execute(db);
    nameWords.push({ word: w.word, servers: Number(w.servers), contains: Number(contains.rows[0]!.n) });
  }
  const rare = rareWords(RARE_WORD_COUNT);
  const tail = rare.slice(Math.floor(rare.length / 5));
  const rareTailServers = await one<Spread>(
    db,
    spread(
      'n',
      `(SELECT t.word, count(DISTINCT s.id) AS n FROM unnest(string_to_array('${tail.join(',')}', ',')) AS t(word)
      LEFT JOIN (SELECT id, regexp_split_to_table(lower(name), '\\s+') AS word FROM servers) s ON s.word = t.word GROUP BY t.word) x`,
    ),
  );
  const perName = await sql<{ words: number; n: number }>`
    SELECT array_length(regexp_split_to_array(name, '\\s+'), 1) AS words, count(*)::int AS n FROM servers GROUP BY 1 ORDER BY 1`.execute(
    db,
  );
  const filters = await sql<{ k: number; n: number }>`
    SELECT coalesce(c.k, 0) AS k, count(*)::int AS n FROM servers s
    LEFT JOIN (SELECT server_id, count(*)::int AS k FROM server_filters GROUP BY server_id) c ON c.server_id = s.id GROUP BY 1 ORDER BY 1`.execute(
    db,
  );
  const byFilter = await one<{ most: number; least: number }>(
    db,
    `SELECT max(n) AS most, min(n) AS least FROM (SELECT f.id, count(sf.server_id) AS n FROM filters f LEFT JOIN server_filters sf ON sf.filter_id = f.id GROUP BY f.id) x`,
  );
  const reviewShare = await one<{ share: number }>(db, `SELECT avg((review IS NOT NULL)::int)::float8 AS share FROM votes`);
  const networks = await one<{ votes: number; ipv4: number; ipv6: number; registered: number; biggest: number; total: number }>(
    db,
    `
      SELECT count(DISTINCT network) AS votes, count(DISTINCT network) FILTER (WHERE network LIKE '%/24') AS ipv4,
        count(DISTINCT network) FILTER (WHERE network LIKE '%/64') AS ipv6,
        (SELECT count(DISTINCT registered_network) FROM users) AS registered,
        (SELECT max(n) FROM (SELECT count(*) AS n FROM votes GROUP BY network) x) AS biggest, count(*) AS total FROM votes`,
  );
  const filterTotal = filters.rows.reduce((s, r) => s + Number(r.k) * Number(r.n), 0);
  return {
    servers: votes.servers,
    votesPerServer: {
      p10: votes.p10,
      p50: votes.p50,
      p90: votes.p90,
      p99: votes.p99,
      max: votes.max,
      top10Share: votes.total > 0 ? votes.top / votes.total : 0,
      over10k: votes.over10k,
      top10: top10.rows.map((r) => Number(r.n)),
    },
    nameWords,
    rareTailServers,
    wordsPerName: Object.fromEntries(perName.rows.map((r) => [String(r.words), Number(r.n)])),
    bioLength: await one<Spread>(db, spread('char_length(bio)', 'servers')),
    statusLength: await one<Spread>(db, spread('char_length(status_message)', 'servers')),
    filtersPerServer: {
      average: votes.servers > 0 ? filterTotal / votes.servers : 0,
      counts: Object.fromEntries(filters.rows.map((r) => [String(r.k), Number(r.n)])),
      mostUsed: byFilter.most,
      leastUsed: byFilter.least,
    },
    reviews: { share: reviewShare.share, length: await one<Spread>(db, spread('char_length(review)', 'votes WHERE review IS NOT NULL')) },
    networks: {
      votes: networks.votes,
      ipv4: networks.ipv4,
      ipv6: networks.ipv6,
      registered: networks.registered,
      biggestShare: networks.total > 0 ? networks.biggest / networks.total : 0,
    },
  };
}
