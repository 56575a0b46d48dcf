/**
 * The vocabulary of seeded server names. A name is a common word, a rarer word and often "RP",
 * drawn with a Zipf-like skew (the k-th word about 1/k as often as the first), so a search for
 * "rp" or "city" matches tens of thousands of servers and one for a tail word only a handful.
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

/** Review texts; a review is one of these. */
export const REVIEW_TEXTS = [
  'Great staff and active community, would recommend.',
  'Fun economy but the whitelist took a week.',
  'Lots of custom scripts, runs smoothly most nights.',
  'Friendly players, good for new roleplayers.',
  'Too many rules for my taste, but well run.',
  'Police and EMS are well organised, heists are fun.',
  'Laggy at peak times, otherwise a solid server.',
  'Best serious RP server I have played on.',
] as const;
