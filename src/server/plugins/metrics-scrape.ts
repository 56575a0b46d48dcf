import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/database';
import type { Queue } from '../adapters/queue';
import type { MetricsRepository, PollBacklog } from '../modules/health';

/**
 * How long the database figures of one scrape serve the next: several Prometheus servers, or a
 * scrape repeated at once, cost one round of queries.
 */
export const SNAPSHOT_TTL_MS = 5000;

/** Where the figures read at scrape time come from. */
export interface ScrapeSources {
  handle: Pick<DatabaseHandle, 'kind' | 'pool'>;
  repository: MetricsRepository;
  queue: Pick<Queue, 'getQueues' | 'getQueueSize'>;
  /** Hits and misses of each response cache since start. */
  caches: () => Record<string, { hits: number; misses: number }>;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** `load`'s promise, shared for `ms`; a failed one is forgotten so the next scrape asks again. */
function cachedFor<T>(ms: number, load: () => Promise<T>): () => Promise<T> {
  let at = 0;
  let value: Promise<T> | undefined;
  return () => {
    if (!value || performance.now() - at >= ms) {
      at = performance.now();
      const loading = load();
      value = loading;
      loading.catch(() => {
        if (value === loading) value = undefined;
      });
    }
    return value;
  };
}

/** Jobs waiting to run (created or waiting for a retry) in each of the app's queues. */
async function queueDepths(queue: ScrapeSources['queue']): Promise<Array<[string, number]>> {
  const queues = (await queue.getQueues()).filter(({ name }) => !name.startsWith('__pgboss__'));
  return Promise.all(queues.map(async ({ name }): Promise<[string, number]> => [name, await queue.getQueueSize(name)]));
}

const secondsOverdue = (backlog: PollBacklog, now: number) =>
  backlog.oldestDueAt ? Math.max(0, (now - backlog.oldestDueAt.getTime()) / 1000) : 0;

/**
 * Gauges and counters read when Prometheus scrapes: the database pool, the job queues, the game
 * poller's backlog, held votes and the response caches. A figure that cannot be read (the
 * database is down) is left out of that scrape, with a warning, and the rest still answers.
 */
export function registerScrapeMetrics(registry: Registry, sources: ScrapeSources): void {
  const { handle, repository, log } = sources;
  const backlog = cachedFor(SNAPSHOT_TTL_MS, async () => {
    const at = sources.now();
    return { at: at.getTime(), ...(await repository.pollBacklog(at)) };
  });
  const held = cachedFor(SNAPSHOT_TTL_MS, () => repository.heldCounts());
  const depths = cachedFor(SNAPSHOT_TTL_MS, () => queueDepths(sources.queue));
  const read = async <T>(what: string, load: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await load();
    } catch (err) {
      log.warn({ err }, `metrics: reading ${what} failed`);
      return undefined;
    }
  };
  const registers = [registry];

  new Gauge({
    name: 'rp_db_pool_connections',
    help: "Connections of the app's database pool, open (total) and idle; the embedded database has one.",
    labelNames: ['engine', 'state'],
    registers,
    collect() {
      this.reset();
      const engine = handle.kind;
      if (!handle.pool) return this.set({ engine, state: 'total' }, 1);
      this.set({ engine, state: 'total' }, handle.pool.totalCount);
      this.set({ engine, state: 'idle' }, handle.pool.idleCount);
    },
  });
  new Gauge({
    name: 'rp_db_pool_waiting_requests',
    help: 'Queries waiting for a free connection of the pool (PostgreSQL only).',
    labelNames: ['engine'],
    registers,
    collect() {
      this.reset();
      if (handle.pool) this.set({ engine: handle.kind }, handle.pool.waitingCount);
    },
  });
  new Gauge({
    name: 'rp_queue_jobs_waiting',
    help: 'Jobs waiting to run in each job queue (new, or failed and waiting for a retry).',
    labelNames: ['queue'],
    registers,
    async collect() {
      const found = await read('the job queues', depths);
      this.reset();
      for (const [queue, waiting] of found ?? []) this.set({ queue }, waiting);
    },
  });
  new Gauge({
    name: 'rp_game_poll_lag_seconds',
    help: 'How long the most overdue game server poll (kind=server) or pending claim check (kind=claim) has been due; 0 when none is.',
    labelNames: ['kind'],
    registers,
    async collect() {
      const found = await read('the poll backlog', backlog);
      this.reset();
      if (!found) return;
      this.set({ kind: 'server' }, secondsOverdue(found.servers, found.at));
      this.set({ kind: 'claim' }, secondsOverdue(found.claims, found.at));
    },
  });
  new Gauge({
    name: 'rp_game_polls_due',
    help: 'Game server polls (kind=server) and pending claim checks (kind=claim) due now and not yet taken by a poller.',
    labelNames: ['kind'],
    registers,
    async collect() {
      const found = await read('the poll backlog', backlog);
      this.reset();
      if (!found) return;
      this.set({ kind: 'server' }, found.servers.due);
      this.set({ kind: 'claim' }, found.claims.due);
    },
  });
  new Gauge({
    name: 'rp_votes_held',
    help: 'Likes and dislikes (votes), joins and daily votes held for an admin to review.',
    labelNames: ['kind'],
    registers,
    async collect() {
      const found = await read('held votes', held);
      this.reset();
      for (const [kind, count] of Object.entries(found ?? {})) this.set({ kind }, count);
    },
  });
  new Counter({
    name: 'rp_cache_lookups_total',
    help: 'Lookups of the response caches by result: front (hot reads answered before routing), lists, feeds and pages.',
    labelNames: ['cache', 'result'],
    registers,
    collect() {
      // The caches count for themselves (an addition per lookup); their totals are copied here.
      this.reset();
      for (const [cache, { hits, misses }] of Object.entries(sources.caches())) {
        this.inc({ cache, result: 'hit' }, hits);
        this.inc({ cache, result: 'miss' }, misses);
      }
    },
  });
}
