import { describe, expect, it } from 'vitest';
import { NamePostings } from './search-index.postings';
import { WordBits, type NamesView } from './search-index.word-bits';

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
