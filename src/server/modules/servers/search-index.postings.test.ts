import { describe, expect, it } from 'vitest';
import { NamePostings } from './search-index.postings';

const NAMES = Array.from(
  { length: 3000 },
  (_, i) => `${['alpha', 'bravo', 'city', 'delta'][i % 4]} rp ${i % 7 === 0 ? 'wild west' : 'life'} ${i}`,
);

describe('name postings', () => {
  it('pack every posting into one block of exactly their entries, and grow one out of it when a name is added', () => {
    const postings = new NamePostings();
    NAMES.forEach((name, slot) => postings.add(slot, name));
    const words = ['alpha', 'city', 'rp', 'wild', 'life', '123'];
    const before = words.map((w) => postings.driver([w])!);
    // Grown by doubling: most postings have room past their entries, each in a buffer of its own.
    expect(before.some((p) => p.slots.length > p.length)).toBe(true);
    const slotsOf = (w: string) => {
      const p = postings.driver([w])!;
      return [...p.slots.subarray(0, p.length)];
    };
    const expected = words.map(slotsOf);

    postings.pack();
    const packed = words.map((w) => postings.driver([w])!);
    for (const p of packed) expect(p.slots.length).toBe(p.length);
    expect(new Set(packed.map((p) => p.slots.buffer)).size).toBe(1);
    const block = packed[0]!.slots.buffer;
    expect(words.map(slotsOf)).toEqual(expected);

    postings.add(NAMES.length, 'wild alpha');
    const grown = postings.driver(['wild'])!;
    expect(grown.slots.buffer).not.toBe(block);
    expect([...grown.slots.subarray(0, grown.length)]).toEqual([...expected[3]!, NAMES.length]);
    // A quarter more room once large, not double.
    expect(grown.slots.length).toBeLessThan(grown.length * 1.3);
    expect(postings.driver(['city'])!.slots.buffer).toBe(block);
  });
});
