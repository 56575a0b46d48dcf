import { describe, expect, it } from 'vitest';
import { ByteSlots } from '../src/server/lib/byte-slots';

/** A deterministic pseudo-random sequence (xorshift), so a failure repeats. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

const MB = 1 << 20;

describe('byte strings held by slot outside the heap', () => {
  it('answers every slot’s last value through thousands of puts, replacements and frees, with dead bytes kept bounded', () => {
    const next = random(20261127);
    const slots = new ByteSlots(16);
    const model = new Map<number, string>();
    const letters = ['a', 'é', '€', '𝄞', '{', '"'];
    slots.grow(4000);
    for (let step = 0; step < 30_000; step++) {
      const slot = next(4000);
      if (next(5) === 0) {
        slots.free(slot);
        model.delete(slot);
      } else {
        const value = letters[next(letters.length)]!.repeat(1 + next(900));
        slots.put(slot, value);
        model.set(slot, value);
      }
      if (step % 1000 === 0 || step === 29_999) {
        for (let s = 0; s < 4000; s++) {
          const held = slots.get(s);
          expect(held?.toString('utf8')).toBe(model.get(s));
          expect(slots.has(s)).toBe(model.has(s));
        }
        const live = [...model.values()].reduce((sum, v) => sum + Buffer.byteLength(v), 0);
        const usage = slots.usage;
        expect(usage.live).toBe(live);
        // Every chunk but the current one is at least three quarters live.
        expect(usage.held).toBeLessThanOrEqual((4 / 3) * live + 2 * MB);
      }
    }
  });

  it('keeps a view’s bytes after its slot is replaced and its chunk let go', () => {
    const slots = new ByteSlots(8);
    slots.put(0, 'first value');
    const view = slots.get(0)!;
    // Fill and drop enough that the first chunk falls under three quarters live and is retired.
    for (let i = 0; i < 4; i++) {
      slots.put(1, 'x'.repeat(200_000));
      slots.put(2, 'y'.repeat(200_000));
    }
    slots.put(0, 'second value');
    slots.free(1);
    slots.free(2);
    expect(view.toString()).toBe('first value');
    expect(slots.get(0)!.toString()).toBe('second value');
  });

  it('tells where a slot’s bytes lie without making a view, and that place keeps them after a replacement', () => {
    const slots = new ByteSlots(4);
    slots.put(0, 'first');
    slots.put(1, 'second', Buffer.from([1, 2]));
    const place = (slot: number) => {
      const chunk = slots.chunkAt(slot)!;
      return { chunk, offset: slots.offsetAt(slot), length: slots.lengthAt(slot) };
    };
    const before = place(1);
    expect(before.chunk.subarray(before.offset, before.offset + before.length)).toEqual(slots.get(1));
    slots.put(1, 'changed');
    expect(before.chunk.subarray(before.offset + 2, before.offset + before.length).toString()).toBe('second');
    const after = place(1);
    expect(after.chunk.subarray(after.offset, after.offset + after.length).toString()).toBe('changed');
    slots.free(0);
    expect(slots.chunkAt(0)).toBeUndefined();
    expect(slots.chunkAt(3)).toBeUndefined();
  });

  it('holds a value bigger than a chunk, a prefix before a value, and forgets everything on clear', () => {
    const slots = new ByteSlots(4);
    const big = 'z'.repeat(3 * MB);
    slots.put(0, big);
    slots.put(1, Buffer.from('{"a":1}'), Buffer.from([1, 2, 3]));
    expect(slots.get(0)!.toString()).toBe(big);
    expect([...slots.get(1)!.subarray(0, 3)]).toEqual([1, 2, 3]);
    expect(slots.get(1)!.subarray(3).toString()).toBe('{"a":1}');
    slots.free(0);
    expect(slots.usage.held).toBeLessThan(2 * MB);
    expect(() => slots.put(4, 'past the end')).toThrow(RangeError);
    expect(() => slots.put(-1, 'before the start')).toThrow(RangeError);
    slots.clear();
    expect(slots.get(1)).toBeUndefined();
    expect(slots.usage).toEqual({ live: 0, held: 0 });
  });
});
