import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { preparedMarker } from '../../db/database';
import { isoText } from '../../db/iso-text';
import type { Executor } from '../../db/transaction';

/** A server the poller has claimed: where to ask and how often it failed before. */
export interface PollTarget {
  id: number;
  game: string;
  gameHost: string;
  gamePort: number;
  pollFailures: number;
  /** Its state before this poll (false: it was offline). */
  online?: boolean | null;
  /** The IP its claim was proven at (null: verified before claims, or a name that never resolves). */
  provenIp?: string | null;
}

/** Columns one poll writes on its server; the optional ones only when the poll changed them. */
export interface PollUpdate {
  lastPolledAt: Date;
  nextPollAt: Date;
  pollFailures: number;
  pollError: string | null;
  online?: boolean;
  currentPlayers?: number;
  maxPlayers?: number | null;
  lastSeenAt?: Date;
  gameMap?: string | null;
  gameVersion?: string | null;
  playerNames?: string[] | null;
}

/** One row of player-count history: a single poll (`raw`) or an hour's or a day's roll-up. */
export interface PlayerCountSample {
  serverId: number;
  sampledAt: Date;
  resolution: 'raw' | 'hour' | 'day';
  players: number;
  maxPlayers: number | null;
  online: boolean;
  samples: number;
  onlineSamples: number;
}

/**
 * A server's history over a range as the statement answers it: `points` is the API's `points`
 * array without its brackets (`{"t":…,"players":…,"online":…}` joined by commas, '' for none).
 */
export interface HistoryRow {
  hidden: boolean;
  points: string;
  /** Polls the points stand for, those that found the server online, and players × polls. */
  samples: number;
  onlineSamples: number;
  weighted: number;
  peak: number;
}

const SERVER_HISTORY = preparedMarker('server-history');

/** The game address columns of a server and the last poll's answer. */
export interface GameStatusRow {
  game: string | null;
  gameHost: string | null;
  gamePort: number | null;
  cfxCode: string | null;
  showPlayerNames: boolean;
  online: boolean | null;
  currentPlayers: number;
  maxPlayers: number | null;
  lastSeenAt: Date | null;
  lastPolledAt: Date | null;
  pollError: string | null;
  /** Failed asks in a row (0 after an answer, and for a new address). */
  pollFailures: number;
}

/** Queries of the game status: a server's address and poll state, and its player-count samples. */
export function gameStatusRepository(db: Kysely<Database>) {
  return {
    /** The owner of a server, to check who may change its address. */
    findServerOwner: (id: number, tx: Executor = db) =>
      tx.selectFrom('servers').select(['id', 'ownerId']).where('id', '=', id).executeTakeFirst(),

    /** The address and the last answer of an existing server. */
    findStatus: (id: number, tx: Executor = db): Promise<GameStatusRow> =>
      tx
        .selectFrom('servers')
        .select([
          'game',
          'gameHost',
          'gamePort',
          'cfxCode',
          'showPlayerNames',
          'online',
          'currentPlayers',
          'maxPlayers',
          'lastSeenAt',
          'lastPolledAt',
          'pollError',
          'pollFailures',
        ])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),

    /**
     * Holds the listing's row for the rest of `tx` (one change of its address at a time); answers
     * whether it shows an address or anything a poll wrote.
     */
    async lockServer(id: number, tx: Executor): Promise<boolean> {
      const row = await tx
        .selectFrom('servers')
        .select(['gameHost', 'online', 'currentPlayers', 'lastPolledAt'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      return row !== undefined && (row.gameHost !== null || row.online !== null || row.currentPlayers !== 0 || row.lastPolledAt !== null);
    },

    /** Holds several listings' rows, in id order (two changes that touch the same rows never wait on each other in a circle). */
    async lockServers(ids: number[], tx: Executor) {
      const sorted = [...new Set(ids)].sort((a, b) => a - b);
      await tx.selectFrom('servers').select('id').where('id', 'in', sorted).orderBy('id').forUpdate().execute();
    },

    /** A new address starts afresh: no failures, no error, unknown state, due at `nextPollAt`. */
    async connectGame(
      id: number,
      address: {
        game: string;
        gameHost: string;
        gamePort: number;
        cfxCode?: string | null | undefined;
        showPlayerNames?: boolean | undefined;
      },
      nextPollAt: Date,
      tx: Executor = db,
    ) {
      await tx
        .updateTable('servers')
        .set({
          game: address.game,
          gameHost: address.gameHost,
          gamePort: address.gamePort,
          ...(address.cfxCode !== undefined ? { cfxCode: address.cfxCode } : {}),
          ...(address.showPlayerNames !== undefined ? { showPlayerNames: address.showPlayerNames } : {}),
          pollFailures: 0,
          pollError: null,
          online: null,
          nextPollAt,
        })
        .where('id', '=', id)
        .execute();
    },

    /** The owner's switch for the names of the players online. */
    async setShowPlayerNames(id: number, showPlayerNames: boolean, tx: Executor = db) {
      await tx.updateTable('servers').set({ showPlayerNames }).where('id', '=', id).execute();
    },

    /**
     * Forgets the address, the poll state and everything the game said (count, slots, map,
     * version, names, when it was seen): only a verified address's listing shows any of it.
     */
    async disconnectGame(id: number, tx: Executor = db) {
      await tx
        .updateTable('servers')
        .set({
          currentPlayers: 0,
          maxPlayers: null,
          playerNames: null,
          gameMap: null,
          gameVersion: null,
          lastSeenAt: null,
          lastPolledAt: null,
          game: null,
          gameHost: null,
          gamePort: null,
          cfxCode: null,
          online: null,
          nextPollAt: null,
          pollError: null,
          pollFailures: 0,
        })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Claims up to `limit` listed servers due by `dueBy` by moving their next poll to `claimUntil`
     * in the same statement that selects them (SKIP LOCKED), so two instances never poll one server.
     */
    async claimDue(limit: number, claimUntil: Date, dueBy: Date, tx: Executor = db): Promise<PollTarget[]> {
      // CamelCasePlugin renames the columns of raw results too.
      const claimed = await sql<PollTarget>`
        UPDATE servers SET next_poll_at = ${claimUntil}
        WHERE id IN (
          SELECT id FROM servers
          WHERE game_host IS NOT NULL AND game IS NOT NULL AND game_port IS NOT NULL AND NOT hidden AND (next_poll_at IS NULL OR next_poll_at <= ${dueBy})
          ORDER BY next_poll_at NULLS FIRST LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, game, game_host, game_port, poll_failures, online,
          (SELECT c.ip FROM game_claims c WHERE c.server_id = servers.id AND c.status = 'verified') AS proven_ip`.execute(tx);
      return claimed.rows.map((r) => ({
        id: Number(r.id),
        game: r.game,
        gameHost: r.gameHost,
        gamePort: r.gamePort,
        pollFailures: r.pollFailures,
        online: r.online,
        provenIp: r.provenIp ?? null,
      }));
    },

    /**
     * Records one poll's outcome on its server, only while the server still shows the address that
     * was asked: an address removed, changed, revoked or taken over while the poll ran must not get
     * that address's numbers back. False when nothing was written.
     */
    async savePoll(id: number, asked: { game: string; gameHost: string; gamePort: number }, update: PollUpdate, tx: Executor = db) {
      const saved = await tx
        .updateTable('servers')
        .set(update)
        .where('id', '=', id)
        .where('game', '=', asked.game)
        .where('gameHost', '=', asked.gameHost)
        .where('gamePort', '=', asked.gamePort)
        .executeTakeFirst();
      return Number(saved.numUpdatedRows) === 1;
    },

    /** Adds a sample; a second one for the same server, resolution and time is dropped. */
    async addSample(sample: PlayerCountSample, tx: Executor = db) {
      await tx
        .insertInto('playerCountSamples')
        .values(sample)
        .onConflict((oc) => oc.columns(['serverId', 'resolution', 'sampledAt']).doNothing())
        .execute();
    },

    /**
     * Merges the `from` samples older than `cutoff` into `to` samples (average weighted by the
     * number of polls, max of the maximum, online if any poll was), adding to a roll-up already there.
     */
    async rollUpSamples(from: 'raw' | 'hour', to: 'hour' | 'day', cutoff: Date, tx: Executor = db) {
      // A literal, not a parameter: GROUP BY must see the same expression as the select list.
      const unit = sql.lit(to);
      await sql`
        INSERT INTO player_count_samples (server_id, sampled_at, resolution, players, max_players, online, samples, online_samples)
        SELECT server_id, date_trunc(${unit}, sampled_at), ${unit}, round(sum(players * samples)::numeric / sum(samples))::int, max(max_players),
               bool_or(online), sum(samples)::int, sum(online_samples)::int
        FROM player_count_samples WHERE resolution = ${from} AND sampled_at < ${cutoff}
        GROUP BY server_id, date_trunc(${unit}, sampled_at)
        ON CONFLICT (server_id, resolution, sampled_at) DO UPDATE SET
          players = round((player_count_samples.players * player_count_samples.samples + EXCLUDED.players * EXCLUDED.samples)::numeric / (player_count_samples.samples + EXCLUDED.samples))::int,
          samples = player_count_samples.samples + EXCLUDED.samples,
          online_samples = player_count_samples.online_samples + EXCLUDED.online_samples,
          online = player_count_samples.online OR EXCLUDED.online`.execute(tx);
    },

    /** Drops the samples of one resolution older than `cutoff` (once rolled up). */
    async deleteSamplesBefore(resolution: 'raw' | 'hour', cutoff: Date, tx: Executor = db) {
      await tx.deleteFrom('playerCountSamples').where('resolution', '=', resolution).where('sampledAt', '<', cutoff).execute();
    },

    /** Forgets a listing's player-count history (its address was proven to be another listing's). */
    async deleteSamples(serverId: number, tx: Executor = db) {
      await tx.deleteFrom('playerCountSamples').where('serverId', '=', serverId).execute();
    },

    /**
     * A server's visibility and its history since `since` in one statement (prepared: planned once
     * per connection), undefined when there is no such server: the points (at most 5000, oldest
     * first) as the API writes them, JSON objects joined by commas, and the sums the average and
     * uptime come from. The database writes the points: a day's ~480 rows parsed, their times made
     * Dates and written back as text were most of an answer's time in the app
     * (docs/decisions/069-server-history-answered-once.md). Read from the key's index alone
     * (each resolution a range of it, `resolution = ANY`), never the table's pages.
     */
    async historyOf(serverId: number, since: Date): Promise<HistoryRow | undefined> {
      const { rows } = await sql<HistoryRow>`${sql.raw(SERVER_HISTORY)}
        SELECT s.hidden, coalesce(h.points, '') AS points, coalesce(h.samples, 0) AS samples,
          coalesce(h.online_samples, 0) AS online_samples, coalesce(h.weighted, 0) AS weighted, coalesce(h.peak, 0) AS peak
        FROM servers s
        LEFT JOIN LATERAL (
          SELECT string_agg(format('{"t":"%s","players":%s,"online":%s}', ${sql.raw(isoText('p.sampled_at'))}, p.players, p.online::text), ','
              ORDER BY p.sampled_at) AS points,
            sum(p.samples)::bigint AS samples, sum(p.online_samples)::bigint AS online_samples,
            sum(p.players::bigint * p.samples)::bigint AS weighted, max(p.players) AS peak
          FROM (
            SELECT p.sampled_at, p.players, p.online, p.samples, p.online_samples
            FROM player_count_samples p
            WHERE p.server_id = s.id AND p.resolution = ANY('{raw,hour,day}'::text[]) AND p.sampled_at >= ${since}
            ORDER BY p.sampled_at
            LIMIT 5000
          ) p
        ) h ON true
        WHERE s.id = ${serverId}`.execute(db);
      return rows[0];
    },
  };
}

export type GameStatusRepository = ReturnType<typeof gameStatusRepository>;
