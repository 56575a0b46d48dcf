import type { Config } from '../config';
import type { DatabaseHandle } from '../db/database';

/**
 * What starts every Redis key and channel of one deployment: `REDIS_PREFIX`, else `rp:` and the
 * database's name. Two deployments on one Redis (a staging site beside production) then never
 * drop each other's caches or share rate limits; the instances of one deployment, on one
 * database, share them as they must.
 */
export function redisPrefix(config: Pick<Config, 'redisPrefix'>, handle: Pick<DatabaseHandle, 'name'>): string {
  const base = config.redisPrefix ?? `rp:${handle.name}`;
  return base.endsWith(':') ? base : `${base}:`;
}
