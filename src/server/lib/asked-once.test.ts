import { describe, expect, it } from 'vitest';
import { AskedOnce } from './asked-once';

describe('AskedOnce', () => {
  it('answers false on the first ask, true on the second, then false again', () => {
    const asked = new AskedOnce(1024);
    expect(asked.askedBefore('{"q":"rp"}')).toBe(false);
    expect(asked.askedBefore('{"q":"rp"}')).toBe(true);
    expect(asked.askedBefore('{"q":"rp"}')).toBe(false);
  });

  it('remembers most keys when it has eight times as many slots, and tells them from keys never asked', () => {
    const asked = new AskedOnce(16_384);
    const keys = Array.from({ length: 2000 }, (_, i) => `{"sort":"likes","q":"word${i}","limit":24,"offset":${i * 24}}`);
    for (const key of keys) asked.askedBefore(key);
    const remembered = keys.filter((key) => asked.askedBefore(key)).length;
    // One slot per key: a few share a slot (about 6 % at this load, twice over as forgotten keys
    // are asked again), and the later one pushed the earlier out.
    expect(remembered).toBeGreaterThan(1700);
    const strangers = Array.from({ length: 4000 }, (_, i) => `{"sort":"new","q":"other${i}"}`);
    expect(strangers.filter((key) => asked.askedBefore(key)).length).toBe(0);
  });

  it('forgets a key once a later one takes its slot', () => {
    const asked = new AskedOnce(2);
    const keys = Array.from({ length: 50 }, (_, i) => `key${i}`);
    for (const key of keys) asked.askedBefore(key);
    // Two slots hold at most the last two keys that took them.
    expect(keys.filter((key) => asked.askedBefore(key)).length).toBeLessThanOrEqual(2);
  });
});
