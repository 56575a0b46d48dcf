import { describe, expect, it } from 'vitest';
import { CounterChanges } from './counter-changes';

describe('CounterChanges', () => {
  it('knows whether a change came in a span', () => {
    const changes = new CounterChanges(10_000);
    changes.note(1000);
    changes.note(2000);
    expect(changes.between(0, 999)).toBe(false);
    expect(changes.between(0, 1000)).toBe(true);
    // A change in the millisecond a page began may not be in it.
    expect(changes.between(1000, 1999)).toBe(true);
    expect(changes.between(1001, 1999)).toBe(false);
    expect(changes.between(1001, 2000)).toBe(true);
    expect(changes.between(2001, 9000)).toBe(false);
  });

  it('sees a change within its grain, late by at most the grain', () => {
    const changes = new CounterChanges(10_000, 50);
    changes.note(1000);
    changes.note(1030);
    // Made at 1010, between the two: the later one is after it.
    expect(changes.between(1010, 1030)).toBe(true);
    expect(changes.between(1031, 5000)).toBe(false);
    // Asked until 1010: the grain's change at 1000 stands as 1030, so it is seen a grain late.
    expect(changes.between(900, 1010)).toBe(false);
    expect(changes.between(900, 1050)).toBe(true);
  });

  it('under a change every millisecond, a page made at any time misses it for no longer than the grain', () => {
    const changes = new CounterChanges(6000, 50);
    for (let now = 0; now <= 5000; now += 1) changes.note(now);
    for (const madeAt of [0, 17, 2500, 4949]) {
      let firstSeen = Infinity;
      for (let until = madeAt; until <= 5000; until += 1) {
        if (changes.between(madeAt, until)) {
          firstSeen = until;
          break;
        }
      }
      expect(firstSeen - madeAt, `made at ${madeAt}`).toBeLessThanOrEqual(51);
    }
  });

  it('holds a bounded number of times, forgetting those older than it keeps', () => {
    const changes = new CounterChanges(1000, 50);
    for (let now = 0; now <= 60_000; now += 3) changes.note(now);
    expect(changes.size).toBeLessThanOrEqual(1000 / 50 + 2);
    expect(changes.between(59_000, 59_500)).toBe(true);
  });
});
