/**
 * The head of the vocabulary of seeded server names, most common first. A name is two to four
 * words of the whole vocabulary (these, then `rareWords`), the k-th word about 1/k as likely as
 * the first (Zipf's law), so a search for "rp" or "city" matches thousands of servers and one for
 * a word of the tail only a handful. The ranks never depend on the seed: the search mix asks for
 * these words as the common ones and for the tail of `rareWords` as the rare ones.
 */
export const COMMON_WORDS = [
  'rp',
  'city',
  'life',
  'roleplay',
  'state',
  'world',
  'legacy',
  'county',
  'united',
  'valley',
  'street',
  'nation',
  'elite',
  'reborn',
  'empire',
  'paradise',
  'frontier',
  'liberty',
  'harbor',
  'island',
  'north',
  'south',
  'west',
  'east',
  'metro',
  'urban',
  'classic',
  'prime',
  'royal',
  'eclipse',
  'horizon',
  'phoenix',
  'summit',
  'haven',
  'dynasty',
  'outlaw',
  'sunset',
  'midnight',
  'kingdom',
  'district',
] as const;

const ONSETS = ['b', 'br', 'c', 'd', 'dr', 'f', 'g', 'gr', 'k', 'kr', 'l', 'm', 'n', 'p', 'r', 's', 'st', 't', 'tr', 'v', 'z', 'th'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ae', 'io'];
const CODAS = ['', 'n', 'r', 'x', 'k', 'l', 'th', 'm', 's'];

/**
 * `count` distinct made-up words ("zorvak", "thelin"), the same on every run: the tail of this
 * list is what a rare-word search looks for.
 */
export function rareWords(count: number): string[] {
  const words: string[] = [];
  const seen = new Set<string>(COMMON_WORDS);
  let state = 0x2545f491;
  const next = (n: number) => {
    // xorshift32: deterministic, good enough to mix syllables.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  while (words.length < count) {
    const syllables = 2 + next(2);
    let word = '';
    for (let i = 0; i < syllables; i++) word += ONSETS[next(ONSETS.length)]! + VOWELS[next(VOWELS.length)]!;
    word += CODAS[next(CODAS.length)]!;
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/** The whole vocabulary in rank order, as names spell it ("RP", "City", "Zorvak"). */
export function nameVocabulary(rare: readonly string[]): string[] {
  return [...COMMON_WORDS, ...rare].map((w) => (w === 'rp' ? 'RP' : w[0]!.toUpperCase() + w.slice(1)));
}
