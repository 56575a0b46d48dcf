import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WINDOW_COUNTERS_MAX, WindowCounters } from './window-counters';

type Result = { current: number; ttl: number };
interface LocalStoreLike {
  incr(key: string, cb: (err: Error | null, result: Result) => void, timeWindow: number, max: number): void;
  read(key: string, cb: (err: Error | null, result: Result) => void, timeWindow: number, max: number): void;
}
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as new (c: boolean, e: boolean, cache?: number) => LocalStoreLike;

const answer = (call: (cb: (err: Error | null, result: Result) => void) => void): Result => {
  let out: Result | undefined;
  call((_err, result) => (out = { current: result.current, ttl: result.ttl }));
  return out!;
};

/** A small deterministic random stream. */
function stream(seed: number) {
  let x = seed >>> 0 || 1;
  return (n: number) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

describe('WindowCounters', () => {
  afterEach(() => vi.useRealTimers());

  for (const [continueExceeding, exponentialBackoff] of [
    [false, false],
    [true, false],
    [false, true],
  ] as const) {
    it(`answers as the plugin's LocalStore does (continueExceeding ${continueExceeding}, exponentialBackoff ${exponentialBackoff})`, () => {
      vi.useFakeTimers({ now: 1_800_000_000_000 });
      const ours = new WindowCounters({ continueExceeding, exponentialBackoff }, undefined, () => Date.now());
      const theirs = new LocalStore(continueExceeding, exponentialBackoff);
      const random = stream(7);
      for (let step = 0; step < 5_000; step++) {
        vi.advanceTimersByTime(random(400));
        const key = `k${random(12)}`;
        const max = 1 + random(5);
        const timeWindow = 1_000;
        if (random(4) === 0) {
          expect(ours.read(key, timeWindow), `read ${step}`).toEqual(answer((cb) => theirs.read(key, cb, timeWindow, max)));
        } else {
          expect(ours.incr(key, timeWindow, max), `incr ${step}`).toEqual(answer((cb) => theirs.incr(key, cb, timeWindow, max)));
        }
      }
    });
  }

  it('keeps counting a key however many other keys are counted meanwhile (the LRU of 5,000 forgot it)', () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const ours = new WindowCounters({ continueExceeding: false, exponentialBackoff: false }, undefined, () => Date.now());
    const theirs = new LocalStore(false, false);
    const hour = 3_600_000;
    for (let i = 0; i < 3; i++) {
      ours.incr('voter', hour, 3);
      answer((cb) => theirs.incr('voter', cb, hour, 3));
    }
    // Three times the LRU's 5,000, still under the table's bound.
    for (let i = 0; i < 15_000; i++) {
      ours.incr(`other-${i}`, hour, 3);
      answer((cb) => theirs.incr(`other-${i}`, cb, hour, 3));
    }
    vi.advanceTimersByTime(60_000);
    expect(ours.incr('voter', hour, 3).current).toBe(4);
    // What the plugin's own store answers: the key was pushed out and counts from one again.
    expect(answer((cb) => theirs.incr('voter', cb, hour, 3)).current).toBe(1);
    // And every other key still has its own count.
    for (let i = 0; i < 15_000; i++) expect(ours.read(`other-${i}`, hour).current).toBe(1);
  });

  it('forgets keys whose windows ended when it makes room, so a steady stream of new keys stays bounded', () => {
    let now = 1_800_000_000_000;
    const ours = new WindowCounters({ continueExceeding: false, exponentialBackoff: false }, undefined, () => now);
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 5_000; i++) ours.incr(`r${round}-${i}`, 1_000, 10);
      now += 1_500;
    }
    // 100,000 keys counted in all; at most the last two rounds' can still be held.
    expect(ours.size).toBeLessThanOrEqual(10_000);
    expect(ours.read('r19-0', 1_000).current).toBe(0);
    expect(ours.incr('r19-0', 1_000, 10).current).toBe(1);
  });

  it('past its bound forgets the keys counted least first, so a key near its limit is remembered', () => {
    // Also with the default bound and a new key at every request (the vote benchmark's addresses).
    const big = new WindowCounters({ continueExceeding: false, exponentialBackoff: false });
    for (let i = 0; i < 100_000; i++) {
      big.incr(`ip-${i}`, 60_000, 120);
      if (i % 50 === 0) big.incr('repeat', 60_000, 120);
      expect(big.size).toBeLessThanOrEqual(WINDOW_COUNTERS_MAX);
    }
    expect(big.read('repeat', 60_000).current).toBe(2_000);

    const now = 1_800_000_000_000;
    const ours = new WindowCounters({ continueExceeding: false, exponentialBackoff: false }, 256, () => now);
    const random = stream(3);
    let hot = 0;
    for (let i = 0; i < 10_000; i++) {
      ours.incr(`flood-${i}`, 60_000, 5);
      if (random(10) === 0) hot = ours.incr('hot', 60_000, 5).current;
      expect(ours.size).toBeLessThanOrEqual(256);
    }
    expect(hot).toBeGreaterThan(900);
    expect(ours.read('hot', 60_000).current).toBe(hot);
  });

  it('holds the keys of two tables apart and never gives two keys one count', () => {
    const now = 1_800_000_000_000;
    const a = new WindowCounters({ continueExceeding: false, exponentialBackoff: false }, undefined, () => now);
    const b = new WindowCounters({ continueExceeding: false, exponentialBackoff: false }, undefined, () => now);
    // Under the table's bound, so none is forgotten to make room (which keys would be depends on the
    // process's secret).
    for (let i = 0; i < 12_000; i++) expect(a.incr(`vote:ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 60_000, 120).current).toBe(1);
    expect(b.read('vote:ip:10.0.0.0', 60_000).current).toBe(0);
    expect(a.incr('vote:ip:10.0.0.0', 60_000, 120).current).toBe(2);
  });

  it('starts small: a table that counts a few keys holds a few kilobytes, not the room for a thousand', () => {
    const before = process.memoryUsage().arrayBuffers;
    const tables = Array.from({ length: 1_000 }, () => new WindowCounters({ continueExceeding: false, exponentialBackoff: false }));
    for (const [i, table] of tables.entries()) for (let k = 0; k < 20; k++) table.incr(`login:${i}:${k}`, 60_000, 5);
    const perTable = (process.memoryUsage().arrayBuffers - before) / tables.length;
    // 64 slots of 24 bytes and the 1 KB histogram; 1,024 slots were ~25 KB a table.
    expect(perTable).toBeLessThan(4_096);
    expect(tables[999]!.read('login:999:19', 60_000).current).toBe(1);
  });
});
