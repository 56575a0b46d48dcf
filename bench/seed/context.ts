import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { networkPlan } from './networks';
import { coprimeSteps, randomSql, type RandomSql } from './random';
import { SEPARATOR } from './texts';

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

/** What every step of one seed shares. */
export interface SeedContext {
  db: Kysely<Database>;
  sizes: SeedSizes;
  seed: number;
  r: RandomSql;
  networks: ReturnType<typeof networkPlan>;
  /** The moment the data is seeded relative to: every time is this minus a drawn number of seconds. */
  at: Date;
  /** The UTC day of `at` (view days count back from it, as the app's counter uses UTC days). */
  day: string;
  userBase: number;
  serverBase: number;
  /** Users 1…owners (numbers, not ids) own the servers, in turn. */
  owners: number;
  /** Users 1…nonVoters may have votes and joins; the rest are the vote benchmark's. */
  nonVoters: number;
  /** The newest servers, created in the last 20 hours (the "just joined" feed). */
  justJoined: number;
}

export async function seedContext(db: Kysely<Database>, sizes: SeedSizes, seed: number, at: Date): Promise<SeedContext> {
  const max = async (table: string) =>
    Number((await sql<{ m: number }>`SELECT coalesce(max(id), 0)::int AS m FROM ${sql.table(table)}`.execute(db)).rows[0]!.m);
  const r = randomSql(seed);
  const voters = Math.min(sizes.voters, sizes.users - 1);
  return {
    db,
    sizes,
    seed,
    r,
    networks: networkPlan(r, sizes.users),
    at,
    day: at.toISOString().slice(0, 10),
    userBase: await max('users'),
    serverBase: await max('servers'),
    owners: Math.max(1, Math.min(Math.ceil(sizes.servers / 2), sizes.users - voters)),
    nonVoters: sizes.users - voters,
    justJoined: Math.min(60, Math.ceil(sizes.servers / 100)),
  };
}

/** A whole number written into a statement. */
export const int = (n: number) => sql.raw(String(Math.floor(n)));

/** `seconds` (a float8 expression) before the seed's moment, exactly: an interval of seconds only, never of days (days would depend on the session's time zone). */
export const ago = (c: SeedContext, seconds: RawBuilder<unknown>) =>
  sql<Date>`(${c.at.toISOString()}::timestamptz - make_interval(secs => ${seconds}))`;

/** A list handed to SQL as one text parameter, split there into a text[] once per statement. */
export const textArray = (items: readonly string[]) => sql`string_to_array(${items.join(SEPARATOR)}::text, ${SEPARATOR}::text)`;

/**
 * `text` cut to at most `length` characters after its last whole sentence that fits, or at a
 * word when not even the first fits (text that fits is kept whole): owners write whole sentences.
 */
export const cutText = (text: RawBuilder<unknown>, length: RawBuilder<unknown>) => {
  const head = sql`left(${text} || ' ', (${length})::int + 1)`;
  return sql<string>`coalesce(substring(${head} from '^(.*[.!?]) '), regexp_replace(${head}, '\\s+\\S*$', ''))`;
};

/**
 * `count` different texts of `pool` joined by `separator`: from a drawn start, a drawn step
 * coprime with the pool's size (so no text comes twice in one row). Only the first `howMany` (an
 * expression, 1…count) are kept.
 */
export function joinedPicks(
  c: SeedContext,
  pool: { array: RawBuilder<unknown>; length: number },
  stream: string,
  keys: Array<RawBuilder<unknown> | number>,
  count: number,
  howMany: RawBuilder<number>,
  separator = ' ',
): RawBuilder<string> {
  const steps = coprimeSteps(pool.length, 1, pool.length);
  const start = sql`floor(${c.r.u(`${stream}.start`, ...keys)} * ${int(pool.length)})::int`;
  const stride = sql`(${sql.raw(`ARRAY[${steps.join(',')}]`)})[least(${int(steps.length)}, 1 + floor(${c.r.u(`${stream}.step`, ...keys)} * ${int(steps.length)})::int)]`;
  const parts = Array.from({ length: Math.min(count, pool.length) }, (_, i) => {
    const picked = sql`(${pool.array})[1 + (${start} + ${int(i)} * ${stride}) % ${int(pool.length)}]`;
    return i === 0 ? picked : sql`CASE WHEN ${howMany} > ${int(i)} THEN ${picked} END`;
  });
  return sql<string>`concat_ws(${separator}::text, ${sql.join(parts)})`;
}

export async function step(label: string, log: (line: string) => void, work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await work();
  log(`  ${label.padEnd(30)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
}
