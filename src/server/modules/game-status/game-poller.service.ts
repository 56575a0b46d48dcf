import type { InTransaction } from '../../db/transaction';
import { MSG } from '../../../shared/messages';
import {
  AddressRefused,
  LOOKUP_TIMEOUT_MS,
  resolvePublicAddresses,
  type HostLookup,
  type TargetPolicy,
} from '../../adapters/address-guard';
import type { GameStatus } from '../../adapters/game-query';
import type { GameStatusRepository, PlayerCountSample, PollTarget } from './game-status.repository';
import type { GameClaimsRepository } from './game-claims.repository';

/** How the poller asks game servers: how often, how long, how many at once. */
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

/** Production's poll settings; the interval comes from config, tests override the rest. */
export const DEFAULT_POLL_SETTINGS: PollSettings = {
  intervalMs: 3 * 60_000,
  timeoutMs: 5000,
  concurrency: 5,
  offlineAfter: 2,
  allowTargets: [],
};

/**
 * How long a round holds what it claimed: long enough for its last item, after `limit /
 * concurrency` items before it that each took a lookup and a query to time out, plus one more.
 * Another instance claims an item only once this has passed (its first round crashed), so a
 * server is never asked twice in one round.
 */
export const roundHoldMs = (settings: Pick<PollSettings, 'timeoutMs' | 'concurrency'>, limit: number): number =>
  (LOOKUP_TIMEOUT_MS + settings.timeoutMs) * (Math.ceil(limit / Math.max(1, settings.concurrency)) + 1);

/** What the address guard lets game queries reach: public addresses, and the tests' allowed targets. */
export const outboundPolicy = (settings: PollSettings): TargetPolicy => ({ allowTargets: settings.allowTargets, lookup: settings.lookup });

/** Asks one game server for its players at a checked IP (the `game-query` adapter). */
export type GameQuery = (game: string, ip: string, port: number, timeoutMs: number, policy: TargetPolicy) => Promise<GameStatus>;

/**
 * Asks one game at its address, resolved and checked on every call (what a name points to may
 * have changed since it was set): the answer and the IP asked, or why there is none. With
 * `provenIp` (the IP a claim was proven at), a name that no longer points there is not asked at
 * all: `moved` says so, and the proof no longer stands.
 */
export async function askGame(
  settings: PollSettings,
  query: GameQuery,
  target: { game: string; host: string; port: number },
  provenIp?: string | null,
): Promise<
  | { result: GameStatus; ip: string; error: null; moved?: undefined }
  | { result: undefined; ip: string | null; error: string; moved?: boolean }
> {
  const outbound = outboundPolicy(settings);
  let ip: string | null = null;
  try {
    const addresses = await resolvePublicAddresses(target.host, target.port, outbound);
    if (provenIp && !addresses.includes(provenIp)) return { result: undefined, ip: addresses[0]!, error: MSG.gameUnreachable, moved: true };
    ip = provenIp ?? addresses[0]!;
    return { result: await query(target.game, ip, target.port, settings.timeoutMs, outbound), ip, error: null };
  } catch (e) {
    return { result: undefined, ip, error: e instanceof AddressRefused ? e.message : MSG.gameUnreachable };
  }
}

/** What a poll that answered writes on its listing: the count, the limit and what else the game said. */
export function answeredColumns(result: GameStatus, at: Date) {
  return {
    online: true,
    currentPlayers: result.players,
    maxPlayers: result.maxPlayers,
    lastSeenAt: at,
    gameMap: result.map ?? null,
    gameVersion: result.version ?? null,
    playerNames: result.playerNames ?? null,
  };
}

/** The raw history sample of one poll (no answer: offline, no players). */
export function pollSample(serverId: number, at: Date, result: GameStatus | undefined): PlayerCountSample {
  return {
    serverId,
    sampledAt: at,
    resolution: 'raw',
    players: result?.players ?? 0,
    maxPlayers: result?.maxPlayers ?? null,
    online: Boolean(result),
    samples: 1,
    onlineSamples: result ? 1 : 0,
  };
}

/** What the poller needs: its queries, transactions, a clock, its settings and the game query. */
export interface PollerDeps {
  repo: GameStatusRepository;
  claims: GameClaimsRepository;
  inTransaction: InTransaction;
  now: () => Date;
  settings: PollSettings;
  query: GameQuery;
  /**
   * After a round: `serverIds` got new counts or online states (what lists and pages show);
   * `checkedIds` is every server asked (its page shows when it was last checked).
   */
  onCountsChanged: (serverIds: number[], checkedIds: number[]) => void;
  /** A server that was offline answered again (its followers are told). */
  onBackOnline?: (serverId: number) => void;
  /** A verified address's name now points away from the IP it was proven at: the proof must be made again. */
  onProofMoved?: (serverId: number, ip: string) => Promise<void>;
  /** Each poll's outcome as it comes in (metrics count them). */
  onPolled?: (outcome: PollOutcome) => void;
}

/** How one poll went: the game answered, did not (or its address was refused), or its name moved off the proven IP. */
export type PollOutcome = 'answered' | 'failed' | 'moved';

/**
 * The poller: claims due servers (one instance each), queries them with a timeout and bounded
 * concurrency, backs off from failing servers, and keeps a sample per poll.
 */
export function gamePoller({
  repo,
  claims,
  inTransaction,
  now,
  settings,
  query,
  onCountsChanged,
  onBackOnline,
  onProofMoved,
  onPolled,
}: PollerDeps) {
  /** One query of one server, recorded: counts, online state, backoff and a sample. */
  const pollOne = async (server: PollTarget) => {
    const at = now();
    const asked = await askGame(settings, query, { game: server.game, host: server.gameHost, port: server.gamePort }, server.provenIp);
    if (asked.moved && asked.ip && onProofMoved) {
      onPolled?.('moved');
      await onProofMoved(server.id, asked.ip);
      return { ok: false, error: asked.error, shown: true, written: true };
    }
    const { result, error } = asked;
    const failures = result ? 0 : server.pollFailures + 1;
    const online = result ? true : failures >= settings.offlineAfter ? false : undefined;
    // Failing servers are asked less often: doubling up to an hour.
    const wait = result ? settings.intervalMs : Math.min(settings.intervalMs * 2 ** Math.min(failures, 5), 3600_000);
    const saved = await inTransaction(async (tx) => {
      const written = await repo.savePoll(
        server.id,
        { game: server.game, gameHost: server.gameHost, gamePort: server.gamePort },
        {
          lastPolledAt: at,
          nextPollAt: new Date(at.getTime() + wait),
          pollFailures: failures,
          pollError: error,
          ...(result ? answeredColumns(result, at) : {}),
          ...(online === false ? { online: false, currentPlayers: 0, playerNames: null } : {}),
        },
        tx,
      );
      // The address changed while it was asked: this poll's answer belongs to no listing now.
      if (!written) return false;
      if (result?.flag) await claims.flagVerified(server.id, result.flag, at, tx);
      await repo.addSample(pollSample(server.id, at, result), tx);
      return true;
    });
    // Nothing written, nothing told: no metric, no cache dropped.
    if (!saved) return { ok: false, error, shown: false, written: false };
    onPolled?.(result ? 'answered' : 'failed');
    if (result && server.online === false) onBackOnline?.(server.id);
    // A failure before the server counts as offline changes only when it was last checked.
    const shown = Boolean(result) || (online === false && server.online !== false);
    return { ok: Boolean(result), error, shown, written: true };
  };

  return {
    pollOne,

    /**
     * One round: claims up to `limit` due servers, held for the round's longest time
     * (`roundHoldMs`) so a crashed instance's claim runs out and no other instance polls them
     * meanwhile, then polls them `settings.concurrency` at a time.
     */
    async pollDue(limit = 50): Promise<number> {
      const queue = await repo.claimDue(limit, new Date(now().getTime() + roundHoldMs(settings, limit)), now());
      const claimed = queue.length;
      const shown: number[] = [];
      const checked: number[] = [];
      const workers = Array.from({ length: Math.min(settings.concurrency, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const polled = await pollOne(next);
          if (!polled.written) continue;
          checked.push(next.id);
          if (polled.shown) shown.push(next.id);
        }
      });
      try {
        await Promise.all(workers);
      } finally {
        // Only these servers' cards and pages, and the lists ordered or filtered by players, are
        // made again (a round every few seconds must not empty every cache of the site); told
        // even when a later poll of the round failed, for the polls already written.
        if (checked.length > 0) onCountsChanged(shown, checked);
      }
      return claimed;
    },
  };
}

export type GamePoller = ReturnType<typeof gamePoller>;
