import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedNames } from './sorted-names';

describe('sorted names', () => {
  it('holds exactly the names it was given, whatever their characters and order', () => {
    const name = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\n'));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 60 }), fc.array(name, { maxLength: 30 }), (names, others) => {
        const held = new SortedNames(names);
        const set = new Set(names);
        expect(held.size).toBe(set.size);
        for (const n of [...names, ...others, '', 'a', 'zz']) expect(held.has(n), JSON.stringify(n)).toBe(set.has(n));
      }),
      { numRuns: 1000 },
    );
  });

  it('finds names with characters past U+00FF, held apart from the one-byte text', () => {
    const held = new SortedNames(['gmail.net', 'gma\u0131l.net', 't\u015b.xyz', 'ts.xyz']);
    expect(held.size).toBe(4);
    for (const name of ['gmail.net', 'gma\u0131l.net', 't\u015b.xyz', 'ts.xyz']) expect(held.has(name), name).toBe(true);
    for (const name of ['gma\u0131l.com', 't\u015b.xy', 'gmail.ne']) expect(held.has(name), name).toBe(false);
  });

  it('refuses a name with a line break (it would split in two)', () => {
    expect(() => new SortedNames(['a\nb'])).toThrow(/line break/);
  });
});
