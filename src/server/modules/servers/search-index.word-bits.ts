import { setBit } from './bitset';
import type { NamePostings } from './search-index.postings';
import { escapeRegExp, INDEXED_WORD, SUBSTRING_MIN } from './search-index.words';

/** Words whose match bitsets are kept (12.5 KB each at 100,000 servers: 6.4 MB in all). */
const WORD_CACHE_SIZE = 512;
/** A search's few matches are looked for among at most this many candidates per match allowed. */
const CANDIDATES_PER_MATCH = 16;
/** Searches remembered as answered from many candidates: asked again, their words get bitsets. */
const SCANNED_KEPT = 1024;

/** What a word's bitset is made from: the index's names and their postings. */
export interface NamesView {
  /** Slots in use (names at or past it are empty). */
  count: number;
  /** Bits a bitset holds: the index's capacity. */
  capacity: number;
  names: readonly string[];
  postings: NamePostings;
}

/** Whether a lower-case name matches one word of the search. */
export function wordTest(word: string): (name: string) => boolean {
  if (word.length >= SUBSTRING_MIN || !INDEXED_WORD.test(word)) return (name) => name.includes(word);
  const whole = new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(word)}(?:$|[^\\p{L}\\p{N}])`, 'u');
  return (name) => whole.test(name);
}

/**
 * The bitsets of the kept words, all in one block taken once: made one by one, each 12.5 KB
 * bitset came from malloc's heap between the answers' short-lived buffers, and the words kept
 * turning over under a stream of searches, so live bitsets were left above freed space glibc
 * could not give back (docs/decisions/079-word-bitsets-in-one-block.md). Once each has been
 * handed out, a word dropped from the cache gives its bitset to the next word made.
 */
class BitsetBlock {
  private readonly block: ArrayBuffer;
  /** Bitsets handed out so far: each once, in order. */
  private handed = 0;

  constructor(
    /** 32-bit words a bitset holds. */
    readonly words: number,
    private readonly count: number,
  ) {
    this.block = new ArrayBuffer(count * words * 4);
  }

  /** A bitset never handed out (still zero, as the block was made), or undefined when every one has been. */
  take(): Uint32Array | undefined {
    if (this.handed === this.count) return undefined;
    return new Uint32Array(this.block, this.handed++ * this.words * 4, this.words);
  }
}

/** Recent search words and the slots whose names match them, kept current as names change. */
export class WordBits {
  /** Kept words, least recently asked first. */
  private readonly cache = new Map<string, { bits: Uint32Array; test: (name: string) => boolean }>();
  /** Recent searches answered by testing more candidates than `max`, oldest first. */
  private readonly scanned = new Set<string>();
  /** Made with the first bitset (its size is the index's capacity then), dropped when the index grows. */
  private block: BitsetBlock | undefined;

  constructor(
    /** Words whose bitsets are kept. */
    private readonly kept = WORD_CACHE_SIZE,
  ) {}

  /** Whether the word's bitset is kept. */
  has(word: string): boolean {
    return this.cache.has(word);
  }

  /** The word's test: the kept one, else made. */
  testOf(word: string): (name: string) => boolean {
    return this.cache.get(word)?.test ?? wordTest(word);
  }

  /**
   * The slots whose names match every word, when they are at most `max` and not every word's
   * bitset is kept: a rare word is then answered from its candidates (the postings of its rarest
   * trigram, at most `candidatesMax` of them), without making, keeping and later collecting a
   * bitset as wide as the index. Undefined otherwise: a word with more matches gets its bitset
   * (kept, so its next search is a lookup). A rare word's rarest trigram is often common (a
   * tenth of the benchmark's rare words had 870 to 4,300 candidates for a handful of matches), so
   * the candidates are tested up to the first match past `max`, not refused by their count; a
   * search that needed more than `max` of them and is asked again gets its bitsets instead, as
   * testing them on every ask would cost more than one bitset kept.
   */
  fewMatches(words: readonly string[], index: NamesView, max: number, candidatesMax = max * CANDIDATES_PER_MATCH): number[] | undefined {
    if (words.length === 0 || words.every((word) => this.cache.has(word))) return undefined;
    const posting = index.postings.driver(words);
    if (posting === null) return [];
    if (posting === undefined || posting.length > candidatesMax) return undefined;
    if (posting.length > max && this.askedAgain(words.join(' '))) return undefined;
    const tests = words.map((word) => this.testOf(word));
    const seen = new Set<number>();
    for (let i = 0; i < posting.length; i++) {
      const slot = posting.slots[i]!;
      const name = index.names[slot]!;
      if (seen.has(slot) || !tests.every((test) => test(name))) continue;
      seen.add(slot);
      if (seen.size > max) return undefined;
    }
    return [...seen];
  }

  /** Whether a search answered from many candidates was asked before (and remembers it). */
  private askedAgain(key: string): boolean {
    if (this.scanned.delete(key)) return true;
    this.scanned.add(key);
    if (this.scanned.size > SCANNED_KEPT) this.scanned.delete(this.scanned.values().next().value as string);
    return false;
  }

  /**
   * The slots whose name matches a word, as a bitset: found once through the postings, then kept
   * current. Asking for a kept word makes it the most recent, so the words of one search (a
   * hundred characters: at most fifty words) never give up each other's bitsets while it runs.
   */
  of(word: string, index: NamesView): Uint32Array {
    const cached = this.cache.get(word);
    if (cached) {
      this.cache.delete(word);
      this.cache.set(word, cached);
      return cached.bits;
    }
    const test = wordTest(word);
    const bits = this.emptyBits(index.capacity >>> 5);
    const posting = index.postings.driver([word]);
    const check = (slot: number) => {
      if (test(index.names[slot]!)) setBit(bits, slot);
    };
    if (posting) for (let i = 0; i < posting.length; i++) check(posting.slots[i]!);
    else if (posting === undefined) for (let slot = 0; slot < index.count; slot++) check(slot);
    this.cache.set(word, { bits, test });
    return bits;
  }

  /** A cleared bitset of the block: a free one, else the least recently asked word's. */
  private emptyBits(words: number): Uint32Array {
    if (this.block?.words !== words) {
      this.cache.clear();
      this.block = new BitsetBlock(words, this.kept);
    }
    const free = this.block.take();
    if (free) return free;
    const [oldest, entry] = this.cache.entries().next().value as [string, { bits: Uint32Array }];
    this.cache.delete(oldest);
    return entry.bits.fill(0);
  }

  /** Brings the kept bitsets up to date with a slot's new name. */
  recheck(slot: number, name: string): void {
    for (const { bits, test } of this.cache.values()) setBit(bits, slot, test(name));
  }

  /** Forgets every bitset (the index grew: they are the old size; made again on demand). */
  clear(): void {
    this.cache.clear();
    this.block = undefined;
  }
}
