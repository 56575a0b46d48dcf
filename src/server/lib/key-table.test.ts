import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { KeyTable } from './key-table';

/** A small deterministic generator, so a failure replays. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('KeyTable', () => {
  it('answers as a Map of counts through adds, deletes and clears, however its runs wrap', () => {
    const next = random(7);
    const table = new KeyTable(1_000_000);
    const model = new Map<string, number>();
    // A universe of 2,000 keys: the table fills, grows and is emptied by deletes many times over.
    const keyOf = () => `n:198.51.${Math.floor(next() * 2000)}.0/24`;
    for (let step = 0; step < 60_000; step++) {
      const key = keyOf();
      const roll = next();
      if (roll < 0.5) {
        const slot = table.add(key);
        table.setCount(slot, table.count(slot) + 1);
        model.set(key, (model.get(key) ?? 0) + 1);
      } else if (roll < 0.95) {
        table.delete(key);
        model.delete(key);
      } else if (roll < 0.9502) {
        table.clear();
        model.clear();
      }
      if (step % 1000 === 0) {
        for (let i = 0; i < 2000; i++) {
          const probe = `n:198.51.${i}.0/24`;
          const slot = table.find(probe);
          expect(slot >= 0 ? table.count(slot) : undefined).toBe(model.get(probe));
        }
      }
      expect(table.size).toBe(model.size);
    }
  });

  it('keeps 100,000 keys apart and finds each again', () => {
    const table = new KeyTable(200_000);
    for (let i = 0; i < 100_000; i++) table.setCount(table.add(`v|${i}|n:203.0.113.0/24|2026-12-07`), i % 1000);
    expect(table.size).toBe(100_000);
    for (let i = 0; i < 100_000; i += 7) expect(table.count(table.find(`v|${i}|n:203.0.113.0/24|2026-12-07`))).toBe(i % 1000);
    expect(table.find('v|100000|n:203.0.113.0/24|2026-12-07')).toBe(-1);
  });

  it('adds no key past maxKeys, and takes keys again after a clear', () => {
    const table = new KeyTable(3);
    expect(['a', 'b', 'c'].map((key) => table.add(key) >= 0)).toEqual([true, true, true]);
    expect(table.add('d')).toBe(-1);
    expect(table.add('a')).toBeGreaterThanOrEqual(0);
    table.delete('b');
    expect(table.add('d')).toBeGreaterThanOrEqual(0);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.find('a')).toBe(-1);
    expect(table.add('e')).toBeGreaterThanOrEqual(0);
  });

  it('holds its keys outside the JavaScript heap', () => {
    // A full collection on demand, so only what is live is measured.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const table = new KeyTable(300_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200_000; i++) table.add(`v|${i}|n:2001:db8:${i.toString(16)}::/64|2026-12-07`);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // A Set of these strings grew it by 34 MB; the table's arrays live in array buffers.
    expect(grown).toBeLessThan(4 * 1024 * 1024);
    expect(table.size).toBe(200_000);
  });
});
