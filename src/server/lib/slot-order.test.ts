import { describe, expect, it } from 'vitest';
import { SlotOrder } from './slot-order';

const listed = (order: SlotOrder) => {
  const out: number[] = [];
  for (let slot = order.first(); slot >= 0; slot = order.after(slot)) out.push(slot);
  return out;
};

describe('slots in order', () => {
  it('keeps insertion order as a Map re-inserting on each use does', () => {
    const order = new SlotOrder(4);
    const model = new Set<number>();
    let x = 11;
    for (let step = 0; step < 20_000; step++) {
      x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
      const slot = x % 64;
      order.grow(64);
      if ((x >> 8) % 3 === 0) {
        order.remove(slot);
        model.delete(slot);
      } else {
        order.toEnd(slot);
        model.delete(slot);
        model.add(slot);
      }
      if (step % 97 === 0) expect(listed(order)).toEqual([...model]);
      expect(order.has(slot)).toBe(model.has(slot));
    }
    expect(listed(order)).toEqual([...model]);
    order.clear();
    expect(listed(order)).toEqual([]);
    expect(order.first()).toBe(-1);
  });

  it('moves the slot being visited to the end without losing the walk', () => {
    const order = new SlotOrder(8);
    for (const slot of [3, 1, 4, 5]) order.toEnd(slot);
    const seen: number[] = [];
    for (let slot = order.first(); slot >= 0 && seen.length < 6;) {
      const next = order.after(slot);
      seen.push(slot);
      if (slot === 1) order.toEnd(slot);
      slot = next;
    }
    expect(seen).toEqual([3, 1, 4, 5, 1]);
    expect(listed(order)).toEqual([3, 4, 5, 1]);
  });

  it('refuses a slot past its room', () => {
    expect(() => new SlotOrder(2).toEnd(2)).toThrow(RangeError);
  });
});
