import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** The Redis channel cache changes travel on between instances. */
export const INVALIDATION_CHANNEL = 'rp:cache-invalidation';

/** Carries a change (any JSON value) to the other instances; each applies what it hears. */
export interface InvalidationBus<T> {
  publish(change: T): void;
  close(): Promise<void>;
}

/**
 * Cache changes shared through Redis pub/sub: each instance publishes what changed and applies
 * what the others publish (its own messages are recognised by the instance id and skipped). While
 * Redis is down a change stays local; the caches' few seconds of lifetime bound what others miss.
 */
export function redisInvalidationBus<T>(
  redisUrl: string,
  apply: (change: T) => void,
  log: Pick<FastifyBaseLogger, 'warn'>,
  channel = INVALIDATION_CHANNEL,
): InvalidationBus<T> & { ready: Promise<void> } {
  const instance = crypto.randomUUID();
  const pub = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  const sub = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  for (const client of [pub, sub]) client.on('error', (err) => log.warn({ err }, 'cache invalidation redis error'));
  sub.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    try {
      const { source, change } = JSON.parse(message) as { source: string; change: T };
      if (source !== instance) apply(change);
    } catch (err) {
      log.warn({ err }, 'cache invalidation: unreadable message');
    }
  });
  const ready = sub.subscribe(channel).then(
    () => undefined,
    (err: unknown) => log.warn({ err }, 'cache invalidation: cannot subscribe'),
  );
  return {
    ready,
    publish(change) {
      pub.publish(channel, JSON.stringify({ source: instance, change })).catch((err: unknown) => {
        log.warn({ err }, 'cache invalidation: publish failed');
      });
    },
    async close() {
      await Promise.all([pub.quit().catch(() => undefined), sub.quit().catch(() => undefined)]);
    },
  };
}
