import { INDEXED_WORD, shortWordsOf, SUBSTRING_MIN, trigramsOf } from './search-index.words';

/** A growable list of slots. */
export interface Posting {
  slots: Int32Array;
  length: number;
}

/**
 * The search index's name postings: for each trigram, and each short word of letters and digits,
 * the slots whose names hold it. A renamed or removed name's entries stay (every candidate is
 * checked against its name) until a quarter of all entries are stale; then they are built again.
 *
 * Built, they are packed into one block, each posting a view of exactly its length: grown by
 * doubling, each had held a buffer of its own with a third more room than entries on average
 * (9.1 MB for 6.1 MB of slots, each its own allocation in malloc's heap). A posting that grows
 * later is copied out of the block into one a quarter larger
 * (docs/decisions/082-pages-kept-from-their-second-ask.md).
 */
export class NamePostings {
  private readonly trigrams = new Map<string, Posting>();
  private readonly shortWords = new Map<string, Posting>();
  /** Entries that no longer match their slot's name. */
  private stale = 0;
  private entries = 0;
  /** Since the last `pack`: postings then grow by a quarter once large; while building, by doubling. */
  private packed = false;

  /** A slot's first name. */
  add(slot: number, name: string): void {
    this.addAll(slot, trigramsOf(name), shortWordsOf(name));
  }

  /** A slot renamed from `old` to `name`: what the new name adds, and the old one's entries counted stale. */
  rename(slot: number, old: string, name: string): void {
    const [oldTri, oldShort] = [trigramsOf(old), shortWordsOf(old)];
    const [newTri, newShort] = [trigramsOf(name), shortWordsOf(name)];
    this.addAll(
      slot,
      [...newTri].filter((t) => !oldTri.has(t)),
      [...newShort].filter((w) => !oldShort.has(w)),
    );
    this.stale += [...oldTri].filter((t) => !newTri.has(t)).length + [...oldShort].filter((w) => !newShort.has(w)).length;
  }

  /** A removed slot's name: its entries are stale. */
  remove(name: string): void {
    this.stale += trigramsOf(name).size + shortWordsOf(name).size;
  }

  /** Builds the postings again from the live slots' names once a quarter of their entries are stale. */
  compactIfStale(liveSlots: Iterable<number>, names: readonly string[]): void {
    if (this.stale < 1024 || this.stale * 4 < this.entries) return;
    this.trigrams.clear();
    this.shortWords.clear();
    this.entries = 0;
    this.stale = 0;
    this.packed = false;
    for (const slot of liveSlots) this.add(slot, names[slot]!);
    this.pack();
  }

  /** Copies every posting into one block, each a view of exactly its length. */
  pack(): void {
    let total = 0;
    for (const map of [this.trigrams, this.shortWords]) for (const posting of map.values()) total += posting.length;
    const block = new Int32Array(total);
    let at = 0;
    for (const map of [this.trigrams, this.shortWords]) {
      for (const posting of map.values()) {
        block.set(posting.slots.subarray(0, posting.length), at);
        posting.slots = block.subarray(at, at + posting.length);
        at += posting.length;
      }
    }
    this.packed = true;
  }

  /**
   * The smallest posting that every match must be in: a word's rarest trigram, or a short word's
   * postings. Null when some word matches nothing; undefined when no word has a posting (scan all).
   */
  driver(words: readonly string[]): Posting | null | undefined {
    let best: Posting | undefined;
    for (const word of words) {
      let candidate: Posting | undefined;
      if (word.length >= SUBSTRING_MIN) {
        for (const trigram of trigramsOf(word)) {
          const posting = this.trigrams.get(trigram);
          if (!posting) return null;
          if (!candidate || posting.length < candidate.length) candidate = posting;
        }
      } else if (INDEXED_WORD.test(word)) {
        candidate = this.shortWords.get(word);
        if (!candidate) return null;
      } else continue;
      if (!best || candidate!.length < best.length) best = candidate;
    }
    return best;
  }

  private addAll(slot: number, trigrams: Iterable<string>, shortWords: Iterable<string>): void {
    for (const t of trigrams) this.append(this.trigrams, t, slot);
    for (const w of shortWords) this.append(this.shortWords, w, slot);
  }

  private append(map: Map<string, Posting>, key: string, slot: number): void {
    let posting = map.get(key);
    if (!posting) map.set(key, (posting = { slots: new Int32Array(4), length: 0 }));
    if (posting.length === posting.slots.length) {
      // Doubled while being built (and while small), a quarter more once packed and large.
      const size = posting.length;
      const bigger = new Int32Array(this.packed && size >= 256 ? size + (size >> 2) : Math.max(4, size * 2));
      bigger.set(posting.slots);
      posting.slots = bigger;
    }
    posting.slots[posting.length++] = slot;
    this.entries++;
  }
}
