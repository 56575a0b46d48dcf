import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema';
import { isCrawler } from '../../lib/crawlers';
import { HourlyQuota } from '../../lib/hourly-quota';
import { KeyTable } from '../../lib/key-table';
import { clientNetwork } from '../../lib/network';
import type { AudienceRepository, SearchRow, ViewRow } from './audience.repository';

/** How much one client network may add to the view and search statistics, and how often they are written. */
export interface CountingSettings {
  /** Counted server views per client network (IPv4 /24, IPv6 /64) per hour; past it pages are served, nothing counted. */
  viewsPerNetworkHour: number;
  /** Counted filter searches (one per filter) per client network per hour. */
  searchesPerNetworkHour: number;
  /** Counts wait in memory at most this long before one batched write; a crash loses at most this much (0: only on demand). */
  flushMs: number;
}

/** The limits in production: generous for people, small for a script. */
export const DEFAULT_COUNTING: CountingSettings = { viewsPerNetworkHour: 120, searchesPerNetworkHour: 60, flushMs: 1000 };

/** Who is looking: the logged-in user, or else the address the request came from. */
export interface Visitor {
  user: UserRow | undefined;
  ip: string;
  userAgent: string | undefined;
}

/**
 * One viewer for the once-a-day counts: the logged-in user, else the client's network. Never the
 * User-Agent: a script can send a new one with every request.
 */
export function viewerOf(user: UserRow | undefined, ip: string): string {
  return user ? `u:${user.id}` : `n:${clientNetwork(ip)}`;
}

const BATCH = 500;
/** Counts waiting past this (the database is down or stuck) are dropped rather than held without bound. */
const MAX_PENDING = 20_000;
const MAX_SEEN = 100_000;

/** `key` is what this process remembers it queued. */
type PendingView = ViewRow & { key: string };
type PendingSearch = SearchRow & { key: string };

/**
 * Server views and filter searches, counted once per viewer, per target and per UTC day. The
 * database decides (unique keys, `ON CONFLICT DO NOTHING`), so the rule holds across instances and
 * restarts; this process remembers what it already queued, so a refreshing visitor costs nothing.
 * Nothing is written on the request's path: counts queue here and go out in one statement per
 * batch, every `flushMs` and at shutdown.
 */
export function audienceCounter({
  audience,
  now,
  settings,
  log,
}: {
  audience: AudienceRepository;
  now: () => Date;
  settings: CountingSettings;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}) {
  // What this process queued, as hashes in typed arrays: as a `Set` of strings its 100,000 keys
  // were ~17 MB of the heap every full collection marks.
  const seen = new KeyTable(MAX_SEEN);
  const viewQuota = new HourlyQuota(settings.viewsPerNetworkHour);
  const searchQuota = new HourlyQuota(settings.searchesPerNetworkHour);
  const views: PendingView[] = [];
  const searches: PendingSearch[] = [];
  let chain: Promise<void> = Promise.resolve();

  const remember = (key: string) => {
    // A cheap first filter only: forgetting costs a write that the unique key then ignores.
    if (seen.add(key) < 0) {
      seen.clear();
      seen.add(key);
    }
  };

  /**
   * Writes a batch in one statement. If that fails (a deadlock with another instance's batch, a
   * lost connection), each row is tried alone; rows that still fail are forgotten, so a later
   * visit may count them.
   */
  const write = async <T extends { key: string }>(batch: T[], one: (batch: T[]) => Promise<void>, what: string) => {
    if (batch.length === 0) return;
    try {
      await one(batch);
      return;
    } catch {
      // Retried row by row below.
    }
    let lost = 0;
    let lastError: unknown;
    for (const row of batch) {
      try {
        await one([row]);
      } catch (err) {
        lost++;
        lastError = err;
        seen.delete(row.key);
      }
    }
    if (lost > 0) log?.warn({ err: lastError, lost }, `${what} could not be counted`);
  };

  const drain = async () => {
    while (views.length > 0 || searches.length > 0) {
      const viewBatch = views.splice(0, BATCH);
      const searchBatch = searches.splice(0, BATCH);
      await write(viewBatch, (rows) => audience.insertViews(rows), 'server views');
      await write(searchBatch, (rows) => audience.insertSearches(rows), 'filter searches');
    }
  };

  /** Writes everything queued; flushes run one after another. */
  const flush = (): Promise<void> => {
    chain = chain.then(drain, drain);
    return chain;
  };

  const timer = settings.flushMs > 0 ? setInterval(() => void flush(), settings.flushMs) : undefined;
  timer?.unref();

  // The UTC day of a time, spelled once a day rather than once a view.
  let spelled = { from: 0, to: 0, name: '' };
  const dayOf = (at: Date) => {
    const ms = at.getTime();
    if (!(ms >= spelled.from && ms < spelled.to)) {
      const from = ms - (ms % 86_400_000);
      spelled = { from, to: from + 86_400_000, name: at.toISOString().slice(0, 10) };
    }
    return spelled.name;
  };

  return {
    /**
     * Queues a view of a server unless this viewer was counted there today, the client is a
     * robot, or its network used up its hourly allowance. True when queued.
     */
    view(serverId: number, visitor: Visitor): boolean {
      if (isCrawler(visitor.userAgent) || views.length >= MAX_PENDING) return false;
      const at = now();
      const viewer = viewerOf(visitor.user, visitor.ip);
      const day = dayOf(at);
      const key = `v|${serverId}|${viewer}|${day}`;
      if (seen.find(key) >= 0) return false;
      if (!viewQuota.take(clientNetwork(visitor.ip), at.getTime())) return false;
      remember(key);
      views.push({ serverId, viewer, day, key });
      if (views.length >= BATCH) void flush();
      return true;
    },

    /** Queues a search with these filters for popular filters, once per viewer, filter and day. */
    search(filterNames: string[], visitor: Visitor): void {
      if (isCrawler(visitor.userAgent) || searches.length >= MAX_PENDING) return;
      const at = now();
      const viewer = viewerOf(visitor.user, visitor.ip);
      const day = dayOf(at);
      const fresh = [...new Set(filterNames)]
        .map((filter) => ({ filter, key: `s|${filter}|${viewer}|${day}` }))
        .filter((s) => seen.find(s.key) < 0);
      if (fresh.length === 0 || !searchQuota.take(clientNetwork(visitor.ip), at.getTime(), fresh.length)) return;
      for (const { filter, key } of fresh) {
        remember(key);
        searches.push({ filter, viewer, day, userId: visitor.user?.id ?? null, at, key });
      }
      if (searches.length >= BATCH) void flush();
    },

    flush,

    /** Stops the timer and writes what is left (at shutdown). */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await flush();
    },
  };
}

/** The view and search counter of one process. */
export type AudienceCounter = ReturnType<typeof audienceCounter>;
