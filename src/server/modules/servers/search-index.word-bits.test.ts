import { describe, expect, it } from 'vitest';
import { rng } from '../../db/seed/images';
import { NamePostings } from './search-index.postings';
import { WordBits, wordTest, type NamesView } from './search-index.word-bits';

/** Names as the index holds them (lower case, by slot), with their postings. */
function namesOf(names: string[]): NamesView {
  const postings = new NamePostings();
  names.forEach((name, slot) => postings.add(slot, name));
  return { count: names.length, capacity: 1024, names, postings };
}

describe('WordBits.fewMatches', () => {
  // 600 names hold each of the word's trigrams (`abc`, `bcd`), three hold the word itself.
  const names = [
    ...Array.from({ length: 600 }, (_, i) => `abc bcd ${i}`),
    'abcd valley',
    'the abcd city',
    'abcd',
    ...Array.from({ length: 300 }, (_, i) => `zyxw ${i}`),
  ];
  const view = namesOf(names);

  it('answers a rare word whose every trigram is common from its candidates, without a bitset', () => {
    const words = new WordBits();
    expect(words.fewMatches(['abcd'], view, 256)?.sort((a, b) => a - b)).toEqual([600, 601, 602]);
    expect(words.has('abcd')).toBe(false);
  });

  it('gives a rare word asked again its bitset, when its candidates were many', () => {
    const words = new WordBits();
    expect(words.fewMatches(['abcd'], view, 256)).toHaveLength(3);
    // Asked again: its 603 candidates are not tested every time.
    expect(words.fewMatches(['abcd'], view, 256)).toBeUndefined();
    words.of('abcd', view);
    expect(words.has('abcd')).toBe(true);
    // A word with few candidates is always answered from them.
    expect(words.fewMatches(['valley'], view, 256)).toEqual([600]);
    expect(words.fewMatches(['valley'], view, 256)).toEqual([600]);
    expect(words.has('valley')).toBe(false);
  });

  it('leaves a word with more matches than asked to its bitset', () => {
    const words = new WordBits();
    expect(words.fewMatches(['zyxw'], view, 256)).toBeUndefined();
    expect(words.fewMatches(['zyxw'], view, 300)).toHaveLength(300);
  });

  it('tests no more candidates than it is given', () => {
    const words = new WordBits();
    // Each trigram is in 603 names: the 600 and the three.
    expect(words.fewMatches(['abcd'], view, 256, 602)).toBeUndefined();
    expect(words.fewMatches(['abcd'], view, 256, 603)).toHaveLength(3);
  });

  it('answers a word no name has with nothing, and a kept word through its bitset', () => {
    const words = new WordBits();
    expect(words.fewMatches(['qqqq'], view, 256)).toEqual([]);
    words.of('abcd', view);
    expect(words.fewMatches(['abcd'], view, 256)).toBeUndefined();
  });
});

describe('WordBits.fewMatches against every name tested', () => {
  it('finds exactly the names matching every word, after renames left stale and repeated postings', () => {
    // A small alphabet, so trigrams are shared by many names and words have many candidates.
    const random = rng(7);
    const pick = (chars: string, n: number) => Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join('');
    const nameOf = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick('abcde', 2 + Math.floor(random() * 5))).join(' ');
    const names = Array.from({ length: 3000 }, nameOf);
    const postings = new NamePostings();
    names.forEach((name, slot) => postings.add(slot, name));
    // Renamed, and a third of them back: the first name's entries went stale, then were posted again.
    for (let i = 0; i < 600; i++) {
      const slot = Math.floor(random() * names.length);
      const old = names[slot]!;
      names[slot] = nameOf();
      postings.rename(slot, old, names[slot]!);
      if (i % 3 === 0) {
        postings.rename(slot, names[slot]!, old);
        names[slot] = old;
      }
    }
    const view: NamesView = { count: names.length, capacity: 4096, names, postings };
    let compared = 0;
    for (let q = 0; q < 400; q++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick('abcde', 1 + Math.floor(random() * 4)));
      const tests = words.map(wordTest);
      const expected = names.flatMap((name, slot) => (tests.every((test) => test(name)) ? [slot] : []));
      const found = new WordBits().fewMatches(words, view, 10_000, 100_000);
      if (found === undefined) continue;
      expect(
        found.sort((a, b) => a - b),
        words.join(' '),
      ).toEqual(expected);
      compared++;
    }
    expect(compared).toBeGreaterThan(300);
  });
});

describe('WordBits.of', () => {
  const names = ['red castle', 'blue castle', 'red river', 'green hills', 'blue river rp', 'castle rock'];
  const view = namesOf(names);
  const slotsOf = (bits: Uint32Array) => names.flatMap((_, slot) => ((bits[slot >>> 5]! >>> (slot & 31)) & 1 ? [slot] : []));

  it('keeps every bitset in one block, taken once', () => {
    const words = new WordBits(4);
    const red = words.of('red', view);
    const blue = words.of('blue', view);
    expect(blue.buffer).toBe(red.buffer);
    expect(red.buffer.byteLength).toBe(4 * (view.capacity / 8));
  });

  it('gives the least recently asked word’s bitset to a new word, cleared, and asking keeps a word', () => {
    const words = new WordBits(2);
    words.of('red', view);
    words.of('blue', view);
    // Asked again: now the most recent, so `blue` is the one given up for `castle`.
    words.of('red', view);
    const castle = words.of('castle', view);
    expect(words.has('red')).toBe(true);
    expect(words.has('blue')).toBe(false);
    expect(slotsOf(castle)).toEqual([0, 1, 5]);
    expect(slotsOf(words.of('red', view))).toEqual([0, 2]);
    // Made again after it was given up: its own matches only, none of the bitset's last word's.
    expect(slotsOf(words.of('blue', view))).toEqual([1, 4]);
    expect(words.has('castle')).toBe(false);
  });

  it('answers each word’s matches exactly as its bitsets turn over, kept current through renames', () => {
    const random = rng(11);
    const vocabulary = ['red', 'blue', 'castle', 'river', 'rp', 'hills', 'green', 'rock'];
    const live = [...names];
    const postings = new NamePostings();
    live.forEach((name, slot) => postings.add(slot, name));
    const current: NamesView = { count: live.length, capacity: 1024, names: live, postings };
    const words = new WordBits(3);
    for (let round = 0; round < 500; round++) {
      if (round % 7 === 0) {
        // A rename, as the index makes one: its postings, then the kept bitsets.
        const slot = Math.floor(random() * live.length);
        const old = live[slot]!;
        live[slot] = `${vocabulary[Math.floor(random() * vocabulary.length)]} ${vocabulary[Math.floor(random() * vocabulary.length)]}`;
        postings.rename(slot, old, live[slot]!);
        words.recheck(slot, live[slot]!);
      }
      const word = vocabulary[Math.floor(random() * vocabulary.length)]!;
      const bits = words.of(word, current);
      const test = wordTest(word);
      expect(slotsOf(bits), `${word} in round ${round}`).toEqual(live.flatMap((name, slot) => (test(name) ? [slot] : [])));
    }
  });
});
