import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCard, encodeCard, heldKey } from './card-codec';
import { withCounters } from './card-counters';

/** A card as the API writes one: flat, with texts that may spell the counters' keys. */
const cardArb = fc.record({
  id: fc.nat().map(String),
  name: fc.oneof(fc.string(), fc.constantFrom('"likes":1', 'x\\"likes\\":2', '"monthVotes":9}')),
  statusMessage: fc.oneof(fc.constant(null), fc.string({ unit: 'grapheme' })),
  filters: fc.array(fc.oneof(fc.string(), fc.constant('"dislikes":3')), { maxLength: 4 }),
  likes: fc.nat(),
  dislikes: fc.nat(),
  totalLikes: fc.nat(),
  views: fc.nat(),
  monthVotes: fc.nat(),
});

describe('a card’s vote counters written into its bytes', () => {
  it('gives the bytes JSON.stringify gives the card with those counters', () => {
    fc.assert(
      fc.property(cardArb, fc.nat(), fc.nat(), fc.nat(), (card, likes, dislikes, monthVotes) => {
        const json = Buffer.from(JSON.stringify(card));
        const votes = { likes: card.likes + likes, dislikes: card.dislikes + dislikes };
        expect(String(withCounters(json, votes))).toBe(JSON.stringify({ ...card, ...votes }));
        const month = { monthVotes: card.monthVotes + monthVotes };
        expect(String(withCounters(json, month))).toBe(JSON.stringify({ ...card, ...month }));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers older when the counters add up to less than the card shows', () => {
    const json = Buffer.from(JSON.stringify({ id: '1', likes: 5, dislikes: 2, monthVotes: 40 }));
    expect(withCounters(json, { likes: 5, dislikes: 1 })).toBe('older');
    expect(withCounters(json, { monthVotes: 1 })).toBe('older');
    // A like taken back as a dislike moves one from one to the other: not older.
    expect(String(withCounters(json, { likes: 4, dislikes: 3 }))).toBe('{"id":"1","likes":4,"dislikes":3,"monthVotes":40}');
  });

  it('leaves a card it cannot read that way to the slow way', () => {
    const at = (card: object, counters: { likes: number; dislikes: number }) => withCounters(Buffer.from(JSON.stringify(card)), counters);
    expect(at({ id: '1', dislikes: 2 }, { likes: 1, dislikes: 2 })).toBeUndefined();
    expect(at({ id: '1', likes: null, dislikes: 2 }, { likes: 1, dislikes: 2 })).toBeUndefined();
    expect(at({ id: '1', likes: 1.5, dislikes: 2 }, { likes: 2, dislikes: 2 })).toBeUndefined();
    expect(at({ id: '1', likes: 1, dislikes: 2 }, { likes: Number.NaN, dislikes: 2 })).toBeUndefined();
  });

  it('writes into the view it is given, not the buffer around it', () => {
    const chunk = Buffer.from(`xxxx{"likes":9,"dislikes":0}yyyy`);
    const view = chunk.subarray(4, chunk.length - 4);
    expect(String(withCounters(view, { likes: 10, dislikes: 0 }))).toBe('{"likes":10,"dislikes":0}');
    expect(String(chunk)).toBe('xxxx{"likes":9,"dislikes":0}yyyy');
  });
});

describe('a coded card’s vote counters written into its held bytes', () => {
  it('gives the coded bytes of the card with those counters', () => {
    fc.assert(
      fc.property(cardArb, fc.nat(), fc.nat(), fc.nat(), (card, likes, dislikes, monthVotes) => {
        const held = encodeCard(JSON.stringify(card));
        const votes = { likes: card.likes + likes, dislikes: card.dislikes + dislikes };
        const written = withCounters(held, votes, heldKey) as Buffer;
        expect(written.equals(encodeCard(JSON.stringify({ ...card, ...votes })))).toBe(true);
        const month = { monthVotes: card.monthVotes + monthVotes };
        expect(decodeCard(withCounters(held, month, heldKey) as Buffer).toString()).toBe(JSON.stringify({ ...card, ...month }));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a key by its code only', () => {
    // The key's name spelled in a text is not its code: the card has no likes to set.
    const held = encodeCard(JSON.stringify({ id: '1', name: '"likes":1,', dislikes: 2 }));
    expect(withCounters(held, { likes: 1, dislikes: 2 }, heldKey)).toBeUndefined();
  });
});
