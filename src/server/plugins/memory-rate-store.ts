import { WindowCounters, type PastMax, type WindowCount } from '../lib/window-counters';

/** How @fastify/rate-limit's stores answer a count. */
export type Callback = (err: Error | null, result?: WindowCount) => void;

/**
 * @fastify/rate-limit's store contract over `WindowCounters`, in place of the plugin's LRU of 5,000
 * keys: every key counted exactly until its window ends (docs/decisions/080-rate-limits-counted-exactly.md).
 * The plugin constructs it once with its global options and asks a `child` for each limiter, which
 * gets a table of its own, as the plugin's `LocalStore` does.
 */
export class MemoryRateStore {
  private readonly counters: WindowCounters;

  constructor(pastMax: Partial<PastMax> = {}) {
    this.counters = new WindowCounters({
      continueExceeding: pastMax.continueExceeding === true,
      exponentialBackoff: pastMax.exponentialBackoff === true,
    });
  }

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    cb(null, this.counters.incr(key, timeWindow, max));
  }

  read(key: string, cb: Callback, timeWindow: number): void {
    cb(null, this.counters.read(key, timeWindow));
  }

  child(routeOptions: Record<string, unknown>): MemoryRateStore {
    return new MemoryRateStore(routeOptions as Partial<PastMax>);
  }
}
