import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { currentOrNextWeekend } from '../../src/server/lib/weekend';
import { hashPassword } from '../../src/server/modules/auth/password';
import { COMMON_WORDS, REVIEW_TEXTS, rareWords } from './words';

/** How much the benchmark seeds. `voters` users are kept free of votes: the vote benchmark uses them. */
export interface SeedSizes {
  servers: number;
  users: number;
  votes: number;
  reviews: number;
  joins: number;
  boosts: number;
  views: number;
  voters: number;
}

export const FULL_SIZES: SeedSizes = {
  servers: 100_000,
  users: 200_000,
  votes: 1_000_000,
  reviews: 200_000,
  joins: 100_000,
  boosts: 20_000,
  views: 300_000,
  voters: 10_000,
};

export const QUICK_SIZES: SeedSizes = {
  servers: 400,
  users: 1_200,
  votes: 4_000,
  reviews: 800,
  joins: 600,
  boosts: 100,
  views: 1_000,
  voters: 400,
};

/** What the benchmark needs to know about the seeded data, read back from the database. */
export interface SeededFacts {
  sizes: SeedSizes;
  /** First and last id of the users kept free of votes. */
  voterIds: [number, number];
  rareWords: string[];
}

export const RARE_WORD_COUNT = 5_000;
/** Every seeded account's password (hashed once: all accounts share the hash). */
export const BENCH_PASSWORD = 'bench-password-not-secret';

const lit = (n: number) => sql.lit(Math.floor(n));

/** A 1-based index into `n` items, the k-th about 1/k as likely as the first. */
const zipf = (n: number): RawBuilder<number> =>
  sql<number>`least(${lit(n)}, floor(exp(random() * ln(${lit(Math.max(n, 1))}::float8)))::int)`;

/** A server id: half of the picks uniform, half skewed towards the first servers (the popular ones). */
const pickServer = (base: number, servers: number) =>
  sql<number>`(${lit(base)} + CASE WHEN random() < 0.5 THEN 1 + floor(random() * ${lit(servers)})::int ELSE ${zipf(servers)} END)`;

async function step(label: string, log: (line: string) => void, work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await work();
  log(`  ${label.padEnd(26)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
}

/**
 * Fills an empty, migrated database with set-based SQL only (generate_series, INSERT … SELECT),
 * then sets every counter on `servers` from the rows it counts and analyses the tables. Works on
 * PostgreSQL and on the embedded PGlite alike.
 */
export async function seedBench(db: Kysely<Database>, sizes: SeedSizes, log: (line: string) => void = console.log): Promise<SeededFacts> {
  const userBase = Number((await sql<{ m: number }>`SELECT coalesce(max(id), 0)::int AS m FROM users`.execute(db)).rows[0]!.m);
  const serverBase = Number((await sql<{ m: number }>`SELECT coalesce(max(id), 0)::int AS m FROM servers`.execute(db)).rows[0]!.m);
  const owners = Math.max(1, Math.min(Math.ceil(sizes.servers / 2), sizes.users - sizes.voters));
  const voters = Math.min(sizes.voters, sizes.users - 1);
  const nonVoters = sizes.users - voters;
  const rare = rareWords(RARE_WORD_COUNT);
  const commonList = COMMON_WORDS.join(',');
  const rareList = rare.join(',');
  const reviewList = REVIEW_TEXTS.join('|');
  const justJoined = Math.min(60, Math.ceil(sizes.servers / 100));
  const reviewShare = sizes.votes > 0 ? Math.min(1, sizes.reviews / sizes.votes) : 0;
  const passwordHash = await hashPassword(BENCH_PASSWORD);

  await step(`${sizes.users} users`, log, () =>
    sql`
      INSERT INTO users (id, username, password_hash, role, email, email_key, email_confirmed_at, created_at, updated_at)
      SELECT ${lit(userBase)} + g, 'bench_' || g, ${passwordHash}::text,
        CASE WHEN g <= ${lit(owners)} THEN 'server_owner' ELSE 'player' END,
        -- Confirmed addresses: joining and voting need one.
        'bench_' || g || '@bench.example.com', 'bench_' || g || '@bench.example.com', now() - interval '731 days',
        now() - random() * interval '730 days', now()
      FROM generate_series(1, ${lit(sizes.users)}) AS g`.execute(db),
  );

  await step(`${sizes.servers} servers`, log, () =>
    sql`
      WITH words AS (SELECT string_to_array(${commonList}::text, ',') AS common, string_to_array(${rareList}::text, ',') AS rare),
      picked AS (
        SELECT g,
          initcap(words.common[${zipf(COMMON_WORDS.length)}]) || ' ' || initcap(words.rare[${zipf(rare.length)}])
            || CASE WHEN random() < 0.5 THEN ' RP' ELSE '' END AS name,
          CASE WHEN random() < 0.3 THEN floor(random() * 200)::int ELSE 0 END AS players,
          CASE WHEN g <= ${lit(justJoined)} THEN now() - random() * interval '20 hours'
               ELSE now() - interval '1 day' - random() * random() * interval '730 days' END AS created
        FROM generate_series(1, ${lit(sizes.servers)}) AS g, words
      )
      INSERT INTO servers (id, owner_id, name, status_message, bio, current_players, max_players, online, hidden, created_at, updated_at)
      SELECT ${lit(serverBase)} + g, ${lit(userBase)} + 1 + (g - 1) % ${lit(owners)}, name,
        'Welcome to ' || name, 'A roleplay community. Join us on Discord and read the rules before you play.',
        players, CASE WHEN players > 0 THEN 64 + floor(random() * 192)::int END, CASE WHEN players > 0 THEN true END,
        random() < 0.02, created, created
      FROM picked`.execute(db),
  );

  await step('server filters (0–6 each)', log, () =>
    sql`
      WITH f AS (SELECT array_agg(id ORDER BY md5(name)) AS ids, count(*)::int AS n FROM filters)
      INSERT INTO server_filters (server_id, filter_id)
      SELECT s.id, f.ids[least(f.n, floor(exp(random() * ln(f.n::float8)))::int)]
      FROM servers s CROSS JOIN generate_series(1, 6) AS k CROSS JOIN f
      WHERE s.id > ${lit(serverBase)} AND k <= (s.id * 7919) % 7
      ON CONFLICT DO NOTHING`.execute(db),
  );

  await step(`${sizes.votes} votes`, log, () =>
    sql`
      WITH texts AS (SELECT string_to_array(${reviewList}::text, '|') AS t)
      INSERT INTO votes (user_id, server_id, type, review, created_at)
      SELECT ${lit(userBase)} + 1 + floor(random() * ${lit(nonVoters)})::int, ${pickServer(serverBase, sizes.servers)},
        CASE WHEN random() < 0.8 THEN 'like' ELSE 'dislike' END,
        CASE WHEN random() < ${sql.lit(reviewShare)} THEN texts.t[1 + floor(random() * ${lit(REVIEW_TEXTS.length)})::int] END,
        now() - random() * interval '365 days'
      FROM generate_series(1, ${lit(sizes.votes)}) AS g, texts
      ON CONFLICT (user_id, server_id) DO NOTHING`.execute(db),
  );

  await step(`${sizes.joins} joins`, log, () =>
    sql`
      INSERT INTO joins (user_id, server_id, created_at)
      SELECT ${lit(userBase)} + 1 + floor(random() * ${lit(nonVoters)})::int, ${pickServer(serverBase, sizes.servers)},
        now() - random() * random() * random() * interval '90 days'
      FROM generate_series(1, ${lit(sizes.joins)}) AS g
      ON CONFLICT (user_id, server_id) DO NOTHING`.execute(db),
  );

  await step(`${sizes.boosts} boosts`, log, () =>
    sql`
      INSERT INTO boosts (server_id, user_id, source, amount, created_at)
      SELECT s.id, s.owner_id, 'owner', 1 + floor(random() * 5)::int, now() - random() * interval '30 days'
      FROM (SELECT ${pickServer(serverBase, sizes.servers)} AS id FROM generate_series(1, ${lit(sizes.boosts)}) AS g) AS p
      JOIN servers s ON s.id = p.id`.execute(db),
  );

  await step(`${sizes.views} views`, log, () =>
    sql`
      INSERT INTO server_views (server_id, viewer, day)
      SELECT ${pickServer(serverBase, sizes.servers)},
        'n:10.' || floor(random() * 256)::int || '.' || floor(random() * 256)::int,
        current_date - floor(random() * 30)::int
      FROM generate_series(1, ${lit(sizes.views)}) AS g
      ON CONFLICT DO NOTHING`.execute(db),
  );

  await step('counters from rows', log, () => recountServers(db));

  await step('server of the weekend', log, () =>
    sql`
      INSERT INTO weekend_bookings (server_id, user_id, weekend_start, status)
      SELECT id, owner_id, ${currentOrNextWeekend(new Date())}::date, 'active' FROM servers
      WHERE NOT hidden ORDER BY likes DESC, id LIMIT 1
      ON CONFLICT DO NOTHING`.execute(db),
  );

  await step('sequences', log, async () => {
    await sql`SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT max(id) FROM users))`.execute(db);
    await sql`SELECT setval(pg_get_serial_sequence('servers', 'id'), (SELECT max(id) FROM servers))`.execute(db);
  });

  const facts: SeededFacts = {
    sizes,
    voterIds: [userBase + nonVoters + 1, userBase + sizes.users],
    rareWords: rare,
  };
  await sql`CREATE TABLE IF NOT EXISTS bench_seed (facts jsonb NOT NULL, seeded_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  await sql`DELETE FROM bench_seed`.execute(db);
  await sql`INSERT INTO bench_seed (facts) VALUES (${JSON.stringify({ ...facts, rareWords: undefined })}::jsonb)`.execute(db);
  await step('analyze', log, () => sql`ANALYZE`.execute(db));
  return facts;
}

/** The facts of an earlier seed of this database, or undefined when it was never seeded. */
export async function readSeededFacts(db: Kysely<Database>): Promise<SeededFacts | undefined> {
  const exists = await sql<{ t: string | null }>`SELECT to_regclass('bench_seed')::text AS t`.execute(db);
  if (!exists.rows[0]?.t) return undefined;
  const row = (await sql<{ facts: Omit<SeededFacts, 'rareWords'> }>`SELECT facts FROM bench_seed LIMIT 1`.execute(db)).rows[0];
  if (!row) return undefined;
  const facts = typeof row.facts === 'string' ? (JSON.parse(row.facts) as Omit<SeededFacts, 'rareWords'>) : row.facts;
  return { ...facts, rareWords: rareWords(RARE_WORD_COUNT) };
}

/**
 * Sets likes, dislikes, total_joins, total_boosts, last_boosted_at and views of every server from
 * the rows they count, in set-based statements. Used by the seeder, and before a reused database
 * is benchmarked again (after the previous run's votes were removed).
 */
export async function recountServers(db: Kysely<Database>): Promise<void> {
  await sql`
    UPDATE servers s SET likes = coalesce(c.likes, 0), dislikes = coalesce(c.dislikes, 0)
    FROM servers s2 LEFT JOIN (
      SELECT server_id, count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
      FROM votes WHERE status = 'counted' GROUP BY server_id
    ) c ON c.server_id = s2.id
    WHERE s.id = s2.id AND (s.likes <> coalesce(c.likes, 0) OR s.dislikes <> coalesce(c.dislikes, 0))`.execute(db);
  await sql`
    UPDATE servers s SET total_joins = coalesce(c.n, 0)
    FROM servers s2 LEFT JOIN (SELECT server_id, count(*)::int AS n FROM joins WHERE status = 'counted' GROUP BY server_id) c ON c.server_id = s2.id
    WHERE s.id = s2.id AND s.total_joins <> coalesce(c.n, 0)`.execute(db);
  await sql`
    UPDATE servers s SET total_boosts = coalesce(c.n, 0), last_boosted_at = c.last
    FROM servers s2 LEFT JOIN (
      SELECT server_id, sum(amount)::int AS n, max(created_at) AS last FROM boosts WHERE revoked_at IS NULL GROUP BY server_id
    ) c ON c.server_id = s2.id
    WHERE s.id = s2.id AND (s.total_boosts <> coalesce(c.n, 0) OR s.last_boosted_at IS DISTINCT FROM c.last)`.execute(db);
  await sql`
    UPDATE servers s SET views = coalesce(c.n, 0)
    FROM servers s2 LEFT JOIN (SELECT server_id, count(*)::int AS n FROM server_views GROUP BY server_id) c ON c.server_id = s2.id
    WHERE s.id = s2.id AND s.views <> coalesce(c.n, 0)`.execute(db);
}

/**
 * Every counter on `servers` against the rows it counts, in one set-based pass (fast at 100,000
 * servers): likes, dislikes, joins, boosts (sum of the live ones) and views. Answers the
 * mismatches, at most `limit` of them, and how many there are in all.
 */
export async function checkServerCounters(db: Kysely<Database>, limit = 10): Promise<{ total: number; problems: string[] }> {
  const rows = await sql<{ id: number; what: string; counter: number; rows: number; total: number }>`
    WITH v AS (SELECT server_id, count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
               FROM votes WHERE status = 'counted' GROUP BY server_id),
    j AS (SELECT server_id, count(*)::int AS n FROM joins WHERE status = 'counted' GROUP BY server_id),
    b AS (SELECT server_id, sum(amount)::int AS n FROM boosts WHERE revoked_at IS NULL GROUP BY server_id),
    w AS (SELECT server_id, count(*)::int AS n FROM server_views GROUP BY server_id),
    c AS (
      SELECT s.id, s.likes, coalesce(v.likes, 0) AS like_rows, s.dislikes, coalesce(v.dislikes, 0) AS dislike_rows,
        s.total_joins, coalesce(j.n, 0) AS join_rows, s.total_boosts, coalesce(b.n, 0) AS boost_sum, s.views, coalesce(w.n, 0) AS view_rows
      FROM servers s LEFT JOIN v ON v.server_id = s.id LEFT JOIN j ON j.server_id = s.id
        LEFT JOIN b ON b.server_id = s.id LEFT JOIN w ON w.server_id = s.id
    ),
    bad AS (
      SELECT id, 'likes' AS what, likes AS counter, like_rows AS rows FROM c WHERE likes <> like_rows
      UNION ALL SELECT id, 'dislikes', dislikes, dislike_rows FROM c WHERE dislikes <> dislike_rows
      UNION ALL SELECT id, 'total_joins', total_joins, join_rows FROM c WHERE total_joins <> join_rows
      UNION ALL SELECT id, 'total_boosts', total_boosts, boost_sum FROM c WHERE total_boosts <> boost_sum
      UNION ALL SELECT id, 'views', views, view_rows FROM c WHERE views <> view_rows
    )
    SELECT id, what, counter, rows, (count(*) OVER ())::int AS total FROM bad ORDER BY id LIMIT ${lit(limit)}`.execute(db);
  return {
    total: rows.rows[0]?.total ?? 0,
    problems: rows.rows.map((r) => `server ${r.id}: ${r.what} ${r.counter} but ${r.rows} in its rows`),
  };
}

/** Removes the votes of the reserved voters (a previous run's) and sets the counters back from the rows. */
export async function resetVoters(db: Kysely<Database>, facts: SeededFacts): Promise<number> {
  const removed = await sql`DELETE FROM votes WHERE user_id BETWEEN ${lit(facts.voterIds[0])} AND ${lit(facts.voterIds[1])}`.execute(db);
  await recountServers(db);
  return Number(removed.numAffectedRows ?? 0);
}
