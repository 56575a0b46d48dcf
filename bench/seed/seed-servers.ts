import { sql } from 'kysely';
import { LIMITS } from '../../src/shared/limits';
import { ago, cutText, int, joinedPicks, textArray, type SeedContext } from './context';
import { float, powerRank } from './random';
import { BIO_SENTENCES, STATUS_PHRASES } from './texts';

const DAY = 86_400;
/** Filters per server: 0…6, about three on average (shares of 0, 1, 2, 3, 4, 5, 6). */
const FILTER_COUNTS = [0.03, 0.1, 0.2, 0.3, 0.2, 0.1, 0.07];
/** Names: shares of two and three words (the rest four). */
const NAME_WORDS = { two: 0.55, three: 0.3 };

/** Users: the first `owners` own servers, all with a confirmed address and a home network. */
export async function seedUsers(c: SeedContext, passwordHash: string): Promise<void> {
  const { r, networks } = c;
  await sql`
    INSERT INTO users (id, username, password_hash, role, email, email_key, email_confirmed_at, registered_network, created_at, updated_at)
    SELECT ${int(c.userBase)} + g, 'bench_' || g, ${passwordHash}::text,
      CASE WHEN g <= ${int(c.owners)} THEN 'server_owner' ELSE 'player' END,
      -- Confirmed addresses: joining and voting need one.
      'bench_' || g || '@bench.example.com', 'bench_' || g || '@bench.example.com', ${ago(c, float(731 * DAY))},
      ${networks.text(sql`home`)},
      -- Never younger than a day: a young account in a registration burst would have its votes held.
      ${ago(c, sql`${float(DAY)} + ${r.u('user.age', sql`g`)} * ${float(729 * DAY)}`)}, ${c.at.toISOString()}::timestamptz
    -- OFFSET 0: the home network is worked out once a row, not again wherever it is used.
    FROM (SELECT g, ${networks.home(sql<number>`g`)} AS home FROM generate_series(1, ${int(c.sizes.users)}) AS g OFFSET 0) AS u`.execute(
    c.db,
  );
}

/**
 * Servers: names of two to four words of the vocabulary (Zipf's law over it), status lines and
 * bios of whole sentences up to a length drawn per server (half the bios and a third of the
 * status lines as long as the app allows, the rest from a line up), 30 % online, 2 % hidden,
 * created over two years with the newest in the last day.
 */
export async function seedServers(c: SeedContext, vocabulary: readonly string[]): Promise<void> {
  const { r } = c;
  const g = sql`g`;
  const words = sql`t.words`;
  const wordCount = sql<number>`(CASE WHEN ${r.u('name.length', g)} < ${float(NAME_WORDS.two)} THEN 2
    WHEN ${r.u('name.length', g)} < ${float(NAME_WORDS.two + NAME_WORDS.three)} THEN 3 ELSE 4 END)`;
  const word = (i: number) => sql`${words}[${powerRank(r.u('name.word', g, i), vocabulary.length, 1)}]`;
  const name = sql`concat_ws(' ', ${word(1)}, ${word(2)}, CASE WHEN ${wordCount} >= 3 THEN ${word(3)} END, CASE WHEN ${wordCount} >= 4 THEN ${word(4)} END)`;
  // Half the owners fill the box (the app's limit), the others anywhere from a line to nearly full.
  const bioLength = sql`CASE WHEN ${r.u('bio.full', g)} < 0.5 THEN ${int(LIMITS.bio)} ELSE 60 + floor(${r.u('bio.length', g)} * ${int(LIMITS.bio - 59)}) END`;
  const bio = joinedPicks(c, { array: sql`t.bio`, length: BIO_SENTENCES.length }, 'bio.sentence', [g], 6, sql<number>`6`);
  const statusLength = sql`CASE WHEN ${r.u('status.full', g)} < 0.35 THEN ${int(LIMITS.statusMessage)}
    ELSE 30 + floor(${r.u('status.length', g)} * ${int(LIMITS.statusMessage - 29)}) END`;
  const status = sql`${joinedPicks(c, { array: sql`t.status`, length: STATUS_PHRASES.length }, 'status.phrase', [g], 7, sql<number>`7`, '. ')} || '.'`;
  const online = sql`${r.u('players.online', g)} < 0.3`;
  const maxPlayers = sql`32 * (1 + floor(${r.u('players.max', g)} * 8)::int)`;
  const age = sql<number>`CASE WHEN g <= ${int(c.justJoined)} THEN ${r.u('server.age', g)} * ${float(20 * 3600)}
    ELSE ${float(DAY)} + ${r.u('server.age', g)} * ${r.u('server.age2', g)} * ${float(730 * DAY)} END`;
  await sql`
    WITH t AS (SELECT ${textArray(vocabulary)} AS words, ${textArray(BIO_SENTENCES)} AS bio, ${textArray(STATUS_PHRASES)} AS status)
    INSERT INTO servers (id, owner_id, name, status_message, bio, current_players, max_players, online, hidden, created_at, updated_at)
    SELECT ${int(c.serverBase)} + g, ${int(c.userBase)} + 1 + (g - 1) % ${int(c.owners)}, ${name},
      ${cutText(status, statusLength)}, ${cutText(bio, bioLength)},
      CASE WHEN ${online} THEN floor(${maxPlayers} * power(${r.u('players.now', g)}, 2))::int ELSE 0 END,
      CASE WHEN ${online} THEN ${maxPlayers} END, CASE WHEN ${online} THEN true END,
      ${r.u('hidden', g)} < 0.02, ${ago(c, age)}, ${ago(c, age)}
    FROM generate_series(1, ${int(c.sizes.servers)}) AS g, t`.execute(c.db);
}

/**
 * Each server's popularity rank (1 = most votes), kept in a table for the steps that follow: a
 * draw per server, older servers ahead more often, the newest (just joined) last. Votes, joins,
 * boosts and views all follow it, each on a power law of its own.
 */
export async function rankServers(c: SeedContext): Promise<void> {
  const g = sql`(s.id - ${int(c.serverBase)})::int`;
  await sql`DROP TABLE IF EXISTS bench_seed_rank`.execute(c.db);
  await sql`
    CREATE TABLE bench_seed_rank AS
    SELECT (row_number() OVER (ORDER BY ${g} <= ${int(c.justJoined)}, ${c.r.u('rank', g)} * (1.5 - a.age / ${float(731 * DAY)}), s.id))::int AS rank,
      s.id AS server_id, s.owner_id, a.age
    FROM servers s CROSS JOIN LATERAL (SELECT extract(epoch FROM ${c.at.toISOString()}::timestamptz - s.created_at)::float8 AS age) a
    WHERE s.id > ${int(c.serverBase)}`.execute(c.db);
  await sql`CREATE UNIQUE INDEX bench_seed_rank_rank ON bench_seed_rank (rank)`.execute(c.db);
  await sql`ANALYZE bench_seed_rank`.execute(c.db);
}

/**
 * About three filters a server from the catalog, the most popular on about half of them and the
 * least on a few hundred (Zipf's law over the catalog, in an order drawn from the seed): draws
 * go on until a server has its count of distinct filters (or eight draws are spent).
 */
export async function seedFilters(c: SeedContext): Promise<void> {
  const { r } = c;
  const g = sql`(s.id - ${int(c.serverBase)})::int`;
  const thresholds = FILTER_COUNTS.slice(0, -1).map((_, i) => FILTER_COUNTS.slice(0, i + 1).reduce((a, b) => a + b, 0));
  const wanted = sql`CASE ${sql.join(
    thresholds.map((t, i) => sql`WHEN ${r.u('filters.count', g)} < ${float(t)} THEN ${int(i)}`),
    sql` `,
  )} ELSE ${int(FILTER_COUNTS.length - 1)} END`;
  const catalog = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM filters`.execute(c.db)).rows[0]!.n;
  if (catalog === 0) return;
  await sql`
    WITH f AS (SELECT array_agg(id ORDER BY hashtextextended(name, ${c.r.salt('filters.order')}), id) AS ids FROM filters),
    drawn AS (
      SELECT s.id AS server_id, k, f.ids[${powerRank(r.u('filters.pick', g, sql`k`), Number(catalog), 1)}] AS filter_id, ${wanted} AS wanted
      FROM servers s CROSS JOIN generate_series(1, 8) AS k CROSS JOIN f
      WHERE s.id > ${int(c.serverBase)}
    ),
    firsts AS (SELECT DISTINCT ON (server_id, filter_id) server_id, filter_id, k, wanted FROM drawn ORDER BY server_id, filter_id, k),
    kept AS (SELECT server_id, filter_id, wanted, row_number() OVER (PARTITION BY server_id ORDER BY k) AS n FROM firsts)
    INSERT INTO server_filters (server_id, filter_id)
    SELECT server_id, filter_id FROM kept WHERE n <= wanted ORDER BY server_id, filter_id`.execute(c.db);
}
