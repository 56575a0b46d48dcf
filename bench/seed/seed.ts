import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { currentOrNextWeekend } from '../../src/server/lib/weekend';
import { hashPassword } from '../../src/server/modules/auth/password';
import { seedContext, step, type SeedSizes } from './context';
import { loadLikeARestore } from './bulk-load';
import { recountServers } from './counters';
import { seedBoosts, seedJoins, seedViews, seedVotes } from './seed-activity';
import { rankServers, seedFilters, seedServers, seedUsers } from './seed-servers';
import { nameVocabulary, rareWords } from './words';

export type { SeedSizes } from './context';
export { checkServerCounters, recountServers, resetVoters } from './counters';

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

/** The seed used when none is given. */
export const DEFAULT_SEED = 1;
/**
 * The version of what the generator makes: a database seeded by another version is seeded again
 * rather than reused (the same seed gives other data there).
 */
export const GENERATOR_VERSION = 2;

/** What the benchmark needs to know about the seeded data, read back from the database. */
export interface SeededFacts {
  sizes: SeedSizes;
  /** The seed the data was drawn with: the same seed and sizes give the same rows. */
  seed: number;
  generator: number;
  /** The moment every seeded time is relative to (ISO 8601). */
  seededAt: string;
  /** First and last id of the users kept free of votes. */
  voterIds: [number, number];
  /** The ten listed servers with the most votes (likes and dislikes), most first: what a campaign run votes on. */
  topVoted: number[];
  rareWords: string[];
}

export const RARE_WORD_COUNT = 5_000;
/** Every seeded account's password (hashed once: all accounts share the hash). */
export const BENCH_PASSWORD = 'bench-password-not-secret';

/**
 * Fills an empty, migrated database with set-based SQL only (generate_series, INSERT … SELECT),
 * every value drawn from a hash of (seed, what it is, row) rather than `random()`: the same seed
 * and sizes give the same rows, on PostgreSQL and PGlite alike, whatever plan runs a statement
 * (only the moment everything is relative to moves). Then sets every counter on `servers` from
 * the rows it counts. What the data looks like: the README's "Benchmark" section.
 */
export async function seedBench(
  db: Kysely<Database>,
  sizes: SeedSizes,
  log: (line: string) => void = console.log,
  seed: number = DEFAULT_SEED,
): Promise<SeededFacts> {
  const at = new Date();
  const c = await seedContext(db, sizes, seed, at);
  const rare = rareWords(RARE_WORD_COUNT);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  log(`  seed ${seed}`);

  await loadLikeARestore(db, log, async () => {
    await step(`${sizes.users} users`, log, () => seedUsers(c, passwordHash));
    await step(`${sizes.servers} servers`, log, () => seedServers(c, nameVocabulary(rare)));
    await step('popularity ranks', log, () => rankServers(c));
    await step('server filters (about 3 each)', log, () => seedFilters(c));
    await step(`${sizes.votes} votes`, log, () => seedVotes(c));
    await step(`${sizes.joins} joins`, log, () => seedJoins(c));
    await step(`${sizes.boosts} boosts`, log, () => seedBoosts(c));
    await step(`${sizes.views} views`, log, () => seedViews(c));
    await sql`DROP TABLE bench_seed_rank`.execute(db);
    await step('counters from rows', log, () => recountServers(db));
    // Filters and counters wrote each server twice more: the table as a restore would leave it,
    // not three versions of every row (the benchmark's scans would read three times the pages).
    await step('servers compacted', log, () => sql`VACUUM FULL servers`.execute(db));
  });

  await step('server of the weekend', log, () =>
    sql`
      INSERT INTO weekend_bookings (server_id, user_id, weekend_start, status)
      SELECT id, owner_id, ${currentOrNextWeekend(at)}::date, 'active' FROM servers
      WHERE NOT hidden ORDER BY likes DESC, id LIMIT 1
      ON CONFLICT DO NOTHING`.execute(db),
  );

  // Rows inserted with their ids: the app's own inserts continue after them.
  await step('sequences', log, async () => {
    for (const table of ['users', 'servers', 'votes', 'joins', 'boosts'])
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), greatest(1, (SELECT max(id) FROM ${sql.table(table)})))`.execute(db);
  });

  const topVoted = await sql<{ id: number }>`SELECT id FROM servers WHERE NOT hidden ORDER BY likes + dislikes DESC, id LIMIT 10`.execute(
    db,
  );
  const facts: SeededFacts = {
    sizes,
    seed,
    generator: GENERATOR_VERSION,
    seededAt: at.toISOString(),
    voterIds: [c.userBase + c.nonVoters + 1, c.userBase + sizes.users],
    topVoted: topVoted.rows.map((r) => Number(r.id)),
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

/** Whether a database's facts are of a seed that `seed` and `sizes` would make again (reuse only then). */
export function sameSeed(facts: SeededFacts, seed: number, sizes: SeedSizes): boolean {
  return (
    facts.generator === GENERATOR_VERSION &&
    facts.seed === seed &&
    (Object.keys(sizes) as Array<keyof SeedSizes>).every((k) => facts.sizes?.[k] === sizes[k])
  );
}
