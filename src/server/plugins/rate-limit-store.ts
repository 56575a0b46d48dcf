import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { MemoryRateStore, type Callback } from './memory-rate-store';

/** The store contract of @fastify/rate-limit (constructed once, then `child` per limiter). */
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: Record<string, unknown>): Store;
}
type StoreClass<A extends unknown[]> = new (...args: A) => Store;

// The plugin's Redis store carries the Lua script and the window arithmetic; it ships without types.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as StoreClass<[boolean, boolean, Redis, string]>;
/** The plugin's `store` option: it calls `new store(params)`. */
type PluginStore = NonNullable<Parameters<typeof rateLimit>[1]>['store'];

/** A Redis command slower than this counts as Redis being down for that request. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** While Redis is down, one request in this interval tries it again; the others go to memory. */
const PROBE_INTERVAL_MS = 1000;

/** Whether Redis answers, shared by every limiter of one app; logs each switch once. */
class RedisHealth {
  private up = true;
  private lastProbe = 0;
  private downSince = 0;

  constructor(
    private readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
  ) {}

  shouldTry(): boolean {
    const status = this.redis.status;
    if (status !== 'ready') {
      // Still making its first connection is not an outage worth a warning.
      if (!['wait', 'connecting', 'connect'].includes(status)) this.markDown(new Error(`redis connection is ${status}`));
      return false;
    }
    if (this.up) return true;
    const now = Date.now();
    if (now - this.lastProbe < PROBE_INTERVAL_MS) return false;
    this.lastProbe = now;
    return true;
  }

  markDown(err: Error): void {
    if (!this.up) return;
    this.up = false;
    this.lastProbe = Date.now();
    this.downSince = this.lastProbe;
    this.log.warn({ err }, 'rate limits: Redis is not answering, counting in memory until it is back');
  }

  /**
   * Redis answered a command sent at `sentAt`. One sent before the outage was seen (it was already
   * on its way) proves nothing about now: only a later one brings the limits back to Redis.
   */
  markUp(sentAt: number): void {
    if (this.up || sentAt < this.downSince) return;
    this.up = true;
    this.log.warn('rate limits: Redis answers again, counting in Redis');
  }
}

/**
 * Counts in Redis while it answers and in this process's memory while it does not, request by
 * request: a Redis outage weakens limits to one instance's view, never switches them off.
 */
class FallbackStore implements Store {
  constructor(
    private readonly redis: Store,
    private readonly memory: Store,
    private readonly health: RedisHealth,
  ) {}

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.call('incr', key, cb, timeWindow, max);
  }

  read(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.call('read', key, cb, timeWindow, max);
  }

  child(routeOptions: Record<string, unknown>): Store {
    // A limiter made with createRateLimit names no route: the plugin's store would then write
    // `undefinedundefined-` into every key. Its keys already say what they limit.
    const route = routeOptions['routeInfo'] as { method?: string; url?: string } | undefined;
    const named = { ...routeOptions, routeInfo: { method: route?.method ?? '', url: route?.url ?? '' } };
    return new FallbackStore(this.redis.child(named), this.memory.child(routeOptions), this.health);
  }

  private call(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
    if (!this.health.shouldTry()) return this.memory[method](key, cb, timeWindow, max);
    const sentAt = Date.now();
    this.redis[method](
      key,
      (err, result) => {
        if (err) {
          this.health.markDown(err);
          return this.memory[method](key, cb, timeWindow, max);
        }
        this.health.markUp(sentAt);
        cb(null, result);
      },
      timeWindow,
      max,
    );
  }
}

/**
 * Registers @fastify/rate-limit (limits are opt-in per route). With a Redis URL the counters are
 * shared through Redis and fall back to memory while Redis is unreachable; without one they live
 * in memory (`MemoryRateStore`, exact for every key until its window ends).
 */
export async function registerRateLimiting(app: FastifyInstance, redisUrl: string | undefined, nameSpace = 'rl:'): Promise<void> {
  if (!redisUrl) {
    await app.register(rateLimit, { global: false, store: MemoryRateStore as unknown as PluginStore });
    return;
  }
  const redis = new Redis(redisUrl, {
    connectTimeout: 2000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // Fail at once while disconnected instead of queueing: the request then counts in memory.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  // Reconnect attempts repeat every few seconds during an outage; the switch itself is logged once.
  redis.on('error', (err) => app.log.debug({ err }, 'rate-limit redis error'));
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  const health = new RedisHealth(redis, app.log);
  const store = function RateLimitStore(params: { continueExceeding: boolean; exponentialBackoff: boolean }) {
    return new FallbackStore(
      new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace),
      new MemoryRateStore(params),
      health,
    );
  };
  // The plugin calls `new store(params)`; a constructor function returning an object is what it gets.
  await app.register(rateLimit, { global: false, store: store as unknown as PluginStore });
}
