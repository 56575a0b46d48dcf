import { sql, type RawBuilder } from 'kysely';
import { LIMITS } from '../../src/shared/limits';
import { ago, cutText, int, joinedPicks, textArray, type SeedContext } from './context';
import { coprimeSteps, float, powerRank } from './random';
import { REVIEW_SENTENCES } from './texts';

const DAY = 86_400;

/**
 * The power laws of activity per popularity rank: server r expects a share of the total that
 * goes as (r + shift)^-exponent, the first few raised by up to `bump` times more (fading over
 * `width` ranks): the handful at the top of real lists stands further out than one power law
 * puts it. With 1,000,000 votes on 100,000 servers: about 34,000 votes on the first, five over
 * 10,000, 3 on the median server.
 */
export const VOTE_CURVE: Curve = { exponent: 0.86, shift: 1, bump: 1, width: 6 };
const JOIN_CURVE: Curve = { exponent: 0.95, shift: 3 };
const BOOST_CURVE = { exponent: 0.9, shift: 2 };
const VIEW_CURVE = { exponent: 0.85, shift: 5 };
/** Reviews: shares of one, two, three and four sentences (the rest seven, cut at the limit). */
const REVIEW_LENGTHS = [0.35, 0.3, 0.2, 0.1];
/** How far a server's count strays from its curve, either way (a draw per server). */
const SPREAD = 0.3;

interface Curve {
  exponent: number;
  shift: number;
  bump?: number;
  width?: number;
}

/** A rank's weight on `curve`, in JavaScript (to scale the curve to a total) and in SQL (alike; `exp` of less than -708 is an error there, not 0). */
const weight = (curve: Curve, rank: number) =>
  (rank + curve.shift) ** -curve.exponent * (1 + (curve.bump ?? 0) * Math.exp(-rank / (curve.width ?? 1)));
const weightSql = (curve: Curve, rank: RawBuilder<unknown>) =>
  sql`power(${rank} + ${float(curve.shift)}, ${float(-curve.exponent)}) * (1 + ${float(curve.bump ?? 0)} * exp(-least(${rank} / ${float(curve.width ?? 1)}, 600)))`;

/**
 * The rows of an activity that is once per user and server (votes, joins): each server's count
 * from its rank on `curve` (spread ×0.7…×1.3 and rounded by a draw), its users a walk through
 * users 1…nonVoters with a step coprime to their number, so no pair repeats and nothing needs
 * to be dropped afterwards. A server's owner never acts on it.
 */
function perServerRows(c: SeedContext, stream: string, total: number, curve: Curve) {
  const n = c.nonVoters;
  let sum = 0;
  for (let rank = 1; rank <= c.sizes.servers; rank++) sum += weight(curve, rank);
  const scale = total / sum;
  // Large steps scatter a server's voters over the whole range of users.
  const steps = coprimeSteps(n, Math.floor(n * 0.382), 32);
  const rank = sql`k.rank`;
  return sql`
    SELECT p.server_id, p.rank, p.age, j, 1 + ((p.start + j::int8 * p.step) % ${int(n)})::int AS who
    FROM (
      SELECT k.rank, k.server_id, k.owner_id, k.age,
        least(${int(n)}, floor(${float(scale)} * ${weightSql(curve, sql`k.rank::float8`)}
          * (${float(1 - SPREAD)} + ${float(2 * SPREAD)} * ${c.r.u(`${stream}.spread`, rank)}) + ${c.r.u(`${stream}.round`, rank)})::int) AS n,
        floor(${c.r.u(`${stream}.start`, rank)} * ${int(n)})::int8 AS start,
        (${sql.raw(`ARRAY[${steps.join(',')}]::int8[]`)})[least(${int(steps.length)}, 1 + floor(${c.r.u(`${stream}.step`, rank)} * ${int(steps.length)})::int)] AS step
      FROM bench_seed_rank k
    ) p CROSS JOIN LATERAL generate_series(1, p.n) AS j
    WHERE ${int(c.userBase)} + 1 + ((p.start + j::int8 * p.step) % ${int(n)}) <> p.owner_id`;
}

/** The rows with the network each came from (`net`), worked out once a row (OFFSET 0 keeps the planner from inlining it). */
const withNetwork = (c: SeedContext, stream: string, rows: RawBuilder<unknown>) =>
  sql`SELECT w.*, ${c.networks.ofAction(stream, sql`w.who`, sql`w.rank`, sql`w.j`)} AS net FROM (${rows}) w OFFSET 0`;

/**
 * Votes: a power law over the servers' ranks; each server's share of likes drawn (55–95 %); a
 * fifth with a review of one to seven sentences; from the voter's home network or, a quarter of
 * them, another; cast at any moment between the server's creation and now. Ids follow time.
 */
export async function seedVotes(c: SeedContext): Promise<void> {
  const base = Number((await sql<{ m: number }>`SELECT coalesce(max(id), 0)::int AS m FROM votes`.execute(c.db)).rows[0]!.m);
  await sql`INSERT INTO votes (id, user_id, server_id, type, review, network, created_at) ${voteRows(c, base)}`.execute(c.db);
}

/** The votes' rows (id, user_id, server_id, type, review, network, created_at), ids from `base` + 1. */
export function voteRows(c: SeedContext, base: number): RawBuilder<unknown> {
  const { r } = c;
  const key = [sql`v.rank`, sql`v.j`] as RawBuilder<unknown>[];
  const reviewShare = c.sizes.votes > 0 ? Math.min(1, c.sizes.reviews / c.sizes.votes) : 0;
  const lengthDraw = r.u('review.length', ...key);
  const sentences = sql<number>`(CASE ${sql.join(
    REVIEW_LENGTHS.map(
      (_, i) => sql`WHEN ${lengthDraw} < ${float(REVIEW_LENGTHS.slice(0, i + 1).reduce((a, b) => a + b, 0))} THEN ${int(i + 1)}`,
    ),
    sql` `,
  )} ELSE 7 END)`;
  const review = cutText(
    joinedPicks(c, { array: sql`t.s`, length: REVIEW_SENTENCES.length }, 'review.sentence', key, 7, sentences),
    int(LIMITS.review),
  );
  const liked = sql`(0.55 + 0.4 * ${r.u('votes.liked', sql`v.rank`)})`;
  return sql`
    WITH t AS (SELECT ${textArray(REVIEW_SENTENCES)} AS s),
    made AS (
      SELECT v.server_id, ${int(c.userBase)} + v.who AS user_id,
        CASE WHEN ${r.u('vote.type', ...key)} < ${liked} THEN 'like' ELSE 'dislike' END AS type,
        CASE WHEN ${r.u('vote.review', ...key)} < ${float(reviewShare)} THEN ${review} END AS review,
        ${c.networks.text(sql`v.net`)} AS network,
        ${ago(c, sql`v.age * ${r.u('vote.age', ...key)}`)} AS created_at
      FROM (${withNetwork(c, 'vote', perServerRows(c, 'votes', c.sizes.votes, VOTE_CURVE))}) v CROSS JOIN t
    )
    SELECT ${int(base)} + row_number() OVER (ORDER BY created_at, server_id, user_id), user_id, server_id, type, review, network, created_at
    FROM made`;
}

/** Joins: a power law of their own over the ranks, within the last 90 days (more of them recent), ids in time order. */
export async function seedJoins(c: SeedContext): Promise<void> {
  const key = [sql`v.rank`, sql`v.j`] as RawBuilder<unknown>[];
  const base = Number((await sql<{ m: number }>`SELECT coalesce(max(id), 0)::int AS m FROM joins`.execute(c.db)).rows[0]!.m);
  await sql`
    WITH made AS (
      SELECT v.server_id, ${int(c.userBase)} + v.who AS user_id,
        ${c.networks.text(sql`v.net`)} AS network,
        ${ago(c, sql`least(v.age, ${float(90 * DAY)}) * power(${c.r.u('join.age', ...key)}, 1.5)`)} AS created_at
      FROM (${withNetwork(c, 'join', perServerRows(c, 'joins', c.sizes.joins, JOIN_CURVE))}) v
    )
    INSERT INTO joins (id, user_id, server_id, network, created_at)
    SELECT ${int(base)} + row_number() OVER (ORDER BY created_at, server_id, user_id), user_id, server_id, network, created_at
    FROM made`.execute(c.db);
}

/** Owners' boosts of 1–5, on a power law over the ranks, within the last 30 days. */
export async function seedBoosts(c: SeedContext): Promise<void> {
  const g = sql`g`;
  const base = Number((await sql<{ m: number }>`SELECT coalesce(max(id), 0)::int AS m FROM boosts`.execute(c.db)).rows[0]!.m);
  await sql`
    INSERT INTO boosts (id, server_id, user_id, source, amount, created_at)
    SELECT ${int(base)} + g, k.server_id, k.owner_id, 'owner', 1 + floor(${c.r.u('boost.amount', g)} * 5)::int,
      ${ago(c, sql`least(k.age, ${float(30 * DAY)}) * ${c.r.u('boost.age', g)}`)}
    FROM generate_series(1, ${int(c.sizes.boosts)}) AS g
    JOIN bench_seed_rank k ON k.rank = ${powerRank(c.r.u('boost.rank', g), c.sizes.servers, BOOST_CURVE.exponent, BOOST_CURVE.shift)}`.execute(
    c.db,
  );
}

/** Views of the last 30 days, on a power law over the ranks: 40 % by signed-in users, the rest by network. */
export async function seedViews(c: SeedContext): Promise<void> {
  const { r } = c;
  const g = sql`g`;
  const user = sql`(1 + floor(${r.u('view.user', g)} * ${int(c.sizes.users)})::int)`;
  const viewed = sql`SELECT g, ${c.networks.ofAction('view', user, g)} AS net FROM generate_series(1, ${int(c.sizes.views)}) AS g OFFSET 0`;
  await sql`
    INSERT INTO server_views (server_id, viewer, day)
    SELECT k.server_id,
      CASE WHEN ${r.u('view.signed-in', g)} < 0.4 THEN 'u:' || (${int(c.userBase)} + ${user})
        ELSE 'n:' || ${c.networks.text(sql`x.net`)} END,
      ${c.day}::date - floor(${r.u('view.day', g)} * least(30, ceil(k.age / ${float(DAY)})))::int
    FROM (${viewed}) AS x
    JOIN bench_seed_rank k ON k.rank = ${powerRank(r.u('view.rank', g), c.sizes.servers, VIEW_CURVE.exponent, VIEW_CURVE.shift)}
    -- One view per viewer, server and day, as the app counts them.
    ON CONFLICT DO NOTHING`.execute(c.db);
}
