import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { GameStatusView, History } from '../../../shared/schemas/game-status';
import { MSG } from '../../../shared/messages';
import { badRequest, notFound } from '../../errors';
import { parseId } from '../../lib/ids';
import { AddressRefused, resolvePublicAddress, type HostLookup, type TargetPolicy } from '../../adapters/address-guard';
import type { GameStatus } from '../../adapters/game-query';
import { serverPolicy } from '../servers/servers.policy';

export interface PollSettings {
  intervalMs: number;
  timeoutMs: number;
  concurrency: number;
  /** Consecutive failures after which a server shows offline. */
  offlineAfter: number;
  /** Exact loopback `ip:port` targets the guard lets through: tests' local fake game servers only. */
  allowTargets: readonly string[];
  /** Resolver for game hosts (tests inject one); default: the system's. */
  lookup?: HostLookup;
}

export const DEFAULT_POLL_SETTINGS: PollSettings = {
  intervalMs: 3 * 60_000,
  timeoutMs: 5000,
  concurrency: 5,
  offlineAfter: 2,
  allowTargets: [],
};

interface Deps {
  db: Kysely<Database>;
  now: () => Date;
  settings: PollSettings;
  query: (game: string, ip: string, port: number, timeoutMs: number, policy: TargetPolicy) => Promise<GameStatus>;
  onCountsChanged: () => void;
}

const RANGE_MS = { '24h': 86400_000, '7d': 7 * 86400_000, '30d': 30 * 86400_000 } as const;

/**
 * Live status from the game itself: the owner's address, checked against private
 * networks and resolved once per query; a poller that claims due servers (one instance each),
 * queries with a timeout and bounded concurrency, backs off from failing servers, and keeps a
 * sample per poll, downsampled as it ages.
 */
export function gameStatusService({ db, now, settings, query, onCountsChanged }: Deps) {
  const outbound: TargetPolicy = { allowTargets: settings.allowTargets, lookup: settings.lookup };
  const toView = (s: {
    game: string | null;
    gameHost: string | null;
    gamePort: number | null;
    online: boolean | null;
    currentPlayers: number;
    maxPlayers: number | null;
    lastSeenAt: Date | null;
    lastPolledAt: Date | null;
    pollError: string | null;
  }): GameStatusView => ({
    game: s.game,
    host: s.gameHost,
    port: s.gamePort,
    online: s.online,
    currentPlayers: s.currentPlayers,
    maxPlayers: s.maxPlayers,
    lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
    lastPolledAt: s.lastPolledAt?.toISOString() ?? null,
    error: s.pollError,
  });

  /** One query of one server, recorded: counts, online state, backoff and a sample. */
  const pollOne = async (server: { id: number; game: string; gameHost: string; gamePort: number; pollFailures: number }) => {
    const at = now();
    let result: GameStatus | undefined;
    let error: string | null = null;
    try {
      // Resolved and checked on every poll: what a name points to may have changed since it was set.
      const ip = await resolvePublicAddress(server.gameHost, server.gamePort, outbound);
      result = await query(server.game, ip, server.gamePort, settings.timeoutMs, outbound);
    } catch (e) {
      error = e instanceof AddressRefused ? e.message : MSG.gameUnreachable;
    }
    const failures = result ? 0 : server.pollFailures + 1;
    const online = result ? true : failures >= settings.offlineAfter ? false : undefined;
    // Failing servers are asked less often: doubling up to an hour.
    const wait = result ? settings.intervalMs : Math.min(settings.intervalMs * 2 ** Math.min(failures, 5), 3600_000);
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('servers')
        .set({
          lastPolledAt: at,
          nextPollAt: new Date(at.getTime() + wait),
          pollFailures: failures,
          pollError: error,
          ...(result ? { online: true, currentPlayers: result.players, maxPlayers: result.maxPlayers, lastSeenAt: at } : {}),
          ...(online === false ? { online: false, currentPlayers: 0 } : {}),
        })
        .where('id', '=', server.id)
        .execute();
      await trx
        .insertInto('playerCountSamples')
        .values({
          serverId: server.id,
          sampledAt: at,
          resolution: 'raw',
          players: result?.players ?? 0,
          maxPlayers: result?.maxPlayers ?? null,
          online: Boolean(result),
          samples: 1,
          onlineSamples: result ? 1 : 0,
        })
        .onConflict((oc) => oc.columns(['serverId', 'resolution', 'sampledAt']).doNothing())
        .execute();
    });
    return { ok: Boolean(result), error };
  };

  return {
    pollOne,

    /** Sets (or changes) the address and asks the game at once, so the dashboard shows the answer. */
    async setAddress(actor: UserRow, rawId: string, body: { game: string; host: string; port: number }): Promise<GameStatusView> {
      const id = parseId(rawId);
      const server = id ? await db.selectFrom('servers').select(['id', 'ownerId']).where('id', '=', id).executeTakeFirst() : undefined;
      if (!server) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanManage(actor, server);
      try {
        await resolvePublicAddress(body.host, body.port, outbound);
      } catch (e) {
        if (e instanceof AddressRefused) throw badRequest(e.message);
        throw e;
      }
      await db
        .updateTable('servers')
        .set({
          game: body.game,
          gameHost: body.host.trim(),
          gamePort: body.port,
          pollFailures: 0,
          pollError: null,
          online: null,
          nextPollAt: now(),
        })
        .where('id', '=', server.id)
        .execute();
      await pollOne({ id: server.id, game: body.game, gameHost: body.host.trim(), gamePort: body.port, pollFailures: 0 });
      onCountsChanged();
      return this.status(server.id);
    },

    /** The owner's view of the address and the last answer (the dashboard shows it). */
    async statusFor(actor: UserRow, rawId: string): Promise<GameStatusView> {
      const id = parseId(rawId);
      const server = id ? await db.selectFrom('servers').select(['id', 'ownerId']).where('id', '=', id).executeTakeFirst() : undefined;
      if (!server) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanManage(actor, server);
      return this.status(server.id);
    },

    async clearAddress(actor: UserRow, rawId: string): Promise<void> {
      const id = parseId(rawId);
      const server = id ? await db.selectFrom('servers').select(['id', 'ownerId']).where('id', '=', id).executeTakeFirst() : undefined;
      if (!server) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanManage(actor, server);
      await db
        .updateTable('servers')
        .set({ game: null, gameHost: null, gamePort: null, online: null, nextPollAt: null, pollError: null, pollFailures: 0 })
        .where('id', '=', server.id)
        .execute();
      onCountsChanged();
    },

    async status(id: number): Promise<GameStatusView> {
      const row = await db
        .selectFrom('servers')
        .select(['game', 'gameHost', 'gamePort', 'online', 'currentPlayers', 'maxPlayers', 'lastSeenAt', 'lastPolledAt', 'pollError'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return toView(row);
    },

    /**
     * One round: claims up to `limit` due servers by moving their next poll time forward in the
     * same statement that selects them (SKIP LOCKED), so two instances never poll one server.
     */
    async pollDue(limit = 50): Promise<number> {
      // CamelCasePlugin renames the columns of raw results too.
      const claimed = await sql<{ id: number; game: string; gameHost: string; gamePort: number; pollFailures: number }>`
        UPDATE servers SET next_poll_at = ${new Date(now().getTime() + settings.timeoutMs * 4)}
        WHERE id IN (
          SELECT id FROM servers
          WHERE game_host IS NOT NULL AND game IS NOT NULL AND NOT hidden AND (next_poll_at IS NULL OR next_poll_at <= ${now()})
          ORDER BY next_poll_at NULLS FIRST LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, game, game_host, game_port, poll_failures`.execute(db);
      const queue = claimed.rows.map((r) => ({
        id: Number(r.id),
        game: r.game,
        gameHost: r.gameHost,
        gamePort: r.gamePort,
        pollFailures: r.pollFailures,
      }));
      const workers = Array.from({ length: Math.min(settings.concurrency, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await pollOne(next);
      });
      await Promise.all(workers);
      if (claimed.rows.length > 0) onCountsChanged();
      return claimed.rows.length;
    },

    /** Keeps storage bounded: raw samples become hourly after 2 days, hourly become daily after 30. */
    async downsample(): Promise<void> {
      const roll = async (from: 'raw' | 'hour', to: 'hour' | 'day', olderThanMs: number) => {
        const cutoff = new Date(now().getTime() - olderThanMs);
        // A literal, not a parameter: GROUP BY must see the same expression as the select list.
        const unit = sql.lit(to);
        await db.transaction().execute(async (trx) => {
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
              online = player_count_samples.online OR EXCLUDED.online`.execute(trx);
          await trx.deleteFrom('playerCountSamples').where('resolution', '=', from).where('sampledAt', '<', cutoff).execute();
        });
      };
      await roll('raw', 'hour', 2 * 86400_000);
      await roll('hour', 'day', 30 * 86400_000);
    },

    /** History over a range, from whatever resolution holds it; uptime = online samples / samples. */
    async history(rawId: string, range: keyof typeof RANGE_MS): Promise<History> {
      const id = parseId(rawId);
      const server = id ? await db.selectFrom('servers').select(['id', 'hidden']).where('id', '=', id).executeTakeFirst() : undefined;
      if (!server || server.hidden) throw notFound(MSG.serverNotFound);
      const rows = await db
        .selectFrom('playerCountSamples')
        .select(['sampledAt', 'players', 'online', 'samples', 'onlineSamples'])
        .where('serverId', '=', server.id)
        .where('sampledAt', '>=', new Date(now().getTime() - RANGE_MS[range]))
        .orderBy('sampledAt')
        .limit(5000)
        .execute();
      const samples = rows.reduce((n, r) => n + r.samples, 0);
      const online = rows.reduce((n, r) => n + r.onlineSamples, 0);
      const weighted = rows.reduce((n, r) => n + r.players * r.samples, 0);
      return {
        range,
        points: rows.map((r) => ({ t: r.sampledAt.toISOString(), players: r.players, online: r.online })),
        average: samples ? Math.round((weighted / samples) * 10) / 10 : 0,
        peak: rows.reduce((m, r) => Math.max(m, r.players), 0),
        uptimePercent: samples ? Math.round((online / samples) * 1000) / 10 : null,
      };
    },
  };
}

export type GameStatusService = ReturnType<typeof gameStatusService>;
