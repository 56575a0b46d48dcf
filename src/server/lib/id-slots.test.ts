import { describe, expect, it } from 'vitest';
import { IdSlots } from './id-slots';

/** A seeded stream of numbers in [0, 1): the same operations on every run. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('slots by id', () => {
  it('answers as a Map does through sets, moves and deletes of serial and far-off ids', () => {
    const next = random(7);
    const slots = new IdSlots();
    const model = new Map<number, number>();
    // Mostly serial ids, some far past them (held in the Map until the array reaches them), some reused.
    const idOf = () => {
      const r = next();
      if (r < 0.05) return 1_000_000 + Math.floor(next() * 50_000_000);
      if (r < 0.1 && model.size > 0) return [...model.keys()][Math.floor(next() * model.size)]!;
      return Math.floor(next() * 200_000);
    };
    for (let step = 0; step < 60_000; step++) {
      const id = idOf();
      if (next() < 0.3) expect(slots.delete(id)).toBe(model.delete(id));
      else {
        const slot = Math.floor(next() * 1_000_000);
        slots.set(id, slot);
        model.set(id, slot);
      }
      if (step % 5_000 === 0) for (const [held, slot] of model) expect(slots.get(held)).toBe(slot);
      expect(slots.size).toBe(model.size);
    }
    for (const [id, slot] of model) expect(slots.get(id)).toBe(slot);
    expect([...slots.slots()].sort((a, b) => a - b)).toEqual([...model.values()].sort((a, b) => a - b));
    expect(slots.get(-1)).toBeUndefined();
    expect(slots.get(3.5)).toBeUndefined();
    slots.clear();
    expect(slots.size).toBe(0);
    expect(slots.get([...model.keys()][0]!)).toBeUndefined();
  });

  it('holds ids the array cannot reach (fractions, negatives, past 2^31) in its Map', () => {
    const slots = new IdSlots();
    for (const id of [2.5, -4, 2 ** 40, 12]) slots.set(id, 9);
    expect([2.5, -4, 2 ** 40, 12].map((id) => slots.get(id))).toEqual([9, 9, 9, 9]);
    expect(slots.delete(2.5)).toBe(true);
    expect(slots.delete(2.5)).toBe(false);
    expect(slots.size).toBe(3);
  });

  it('refuses a slot that is not a whole number from 0', () => {
    const slots = new IdSlots();
    expect(() => slots.set(1, -1)).toThrow(RangeError);
    expect(() => slots.set(1, 1.5)).toThrow(RangeError);
    expect(slots.size).toBe(0);
  });
});
