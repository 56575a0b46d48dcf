import { describe, expect, it } from 'vitest';
import { HourlyQuota } from './hourly-quota';

describe('HourlyQuota', () => {
  const HOUR = 3600_000;

  it('allows max units per key per clock hour, then again in the next hour', () => {
    const quota = new HourlyQuota(3);
    const t0 = 10 * HOUR;
    expect([1, 2, 3, 4].map(() => quota.take('a', t0))).toEqual([true, true, true, false]);
    expect(quota.take('b', t0 + 1000)).toBe(true);
    expect(quota.take('a', t0 + HOUR)).toBe(true);
  });

  it('takes several units at once or none', () => {
    const quota = new HourlyQuota(4);
    expect(quota.take('a', 0, 3)).toBe(true);
    expect(quota.take('a', 0, 2)).toBe(false);
    expect(quota.take('a', 0, 1)).toBe(true);
  });

  it('gives nothing to new keys once it holds maxKeys in an hour', () => {
    const quota = new HourlyQuota(5, 2);
    expect(quota.take('a', 0)).toBe(true);
    expect(quota.take('b', 0)).toBe(true);
    expect(quota.take('c', 0)).toBe(false);
    expect(quota.take('a', 0)).toBe(true);
    expect(quota.take('c', HOUR)).toBe(true);
  });
});
