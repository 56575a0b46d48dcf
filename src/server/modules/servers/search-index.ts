import type { Sort } from '../../../shared/schemas/server';
import { clearBit, countBits, hasBit, setBit, slotsOf } from './bitset';
import { grown } from '../../lib/typed-arrays';
import { SortOrders } from './search-index.orders';
import { asksLive, type IndexQuery, type IndexRow, type LiveFilter, type Rank } from './search-index.types';
import { NamePostings } from './search-index.postings';
import { walkRanks, type RankTable } from './search-index.ranks';
import { escapeRegExp, INDEXED_WORD, SUBSTRING_MIN } from './search-index.words';

export { asksLive, type IndexQuery, type IndexRow, type LiveFilter, type Rank } from './search-index.types';

/** A word found in at most this many postings is matched from them, without a bitset. */
const FEW_MATCHES = 256;
/** Words whose match bitsets are kept (12.5 KB each at 100,000 servers). */
const WORD_CACHE_SIZE = 512;

/**
 * Every server's name, filters and sort keys in typed arrays (about 20 MB at 100,000 servers), so
 * a search, its total and any page of it are found in memory: names by trigram and short-word
 * postings, filters as bitsets, each sort as an order of slots kept sorted as keys change. Only the
 * page's rows are then read from the database by id (docs/decisions/028-search-index.md).
 *
 * Matching is the SQL path's: every word of `q` of 3 characters or more anywhere in the lower-case
 * name, shorter words of letters and digits as a whole word, shorter words with other characters
 * anywhere; every chosen filter; not hidden; `hot` only boosted servers. Orders are the SQL path's:
 * the sort's key descending, then id ascending.
 */
export class SearchIndex {
  private capacity = 0;
  private count = 0;
  private ids = new Int32Array(0);
  private names: string[] = [];
  private readonly slotOf = new Map<number, number>();
  /** Live and not hidden. */
  private listed = new Uint32Array(0);
  /** Listed and boosted at least once (the `hot` list). */
  private boosted = new Uint32Array(0);
  /** Polled and answering (the game poller's `online`). */
  private onlineBits = new Uint32Array(0);
  /** Each slot's player limit from the game, -1 when unknown. */
  private slotLimits = new Int32Array(0);
  private readonly filterBits = new Map<number, Uint32Array>();
  private readonly sorts = new SortOrders();
  /** Inside `load`: new slots are appended to the orders unsorted. */
  private bulk = false;
  private readonly postings = new NamePostings();
  /** Bumped by every change: the ranks know when they are out of date. */
  private version = 0;
  /** The last walk of Most Popular, which ranks are read from. */
  private ranks: RankTable | undefined;
  /** The Game category's filters, in catalogue order: a server's game is the first it has. */
  private gameFilters: readonly number[] = [];
  private readonly fewMatchesMax: number;
  /** The matches of the query being answered (see `query`). */
  private scratch = new Uint32Array(0);
  /** Recent search words and the slots whose names match them. */
  private readonly wordCache = new Map<string, { bits: Uint32Array; test: (name: string) => boolean }>();

  /** `fewMatches`: postings up to this long are matched without a bitset (tests set 0 to check the bitset path). */
  constructor({ fewMatches = FEW_MATCHES }: { fewMatches?: number } = {}) {
    this.fewMatchesMax = fewMatches;
    this.grow(1024);
  }

  /** Listed servers in the index. */
  get size(): number {
    return this.slotOf.size;
  }

  /**
   * Adds many servers at once (the first load): appended as they come, each order sorted once at
   * the end, instead of each insert shifting the orders (quadratic at 100,000 servers).
   */
  load(rows: Iterable<IndexRow>): void {
    this.bulk = true;
    try {
      for (const row of rows) this.upsert(row);
    } finally {
      this.bulk = false;
    }
  }

  /** Sorts every order again after `load`. */
  sortOrders(): void {
    this.sorts.sortAll();
  }

  /** How many servers are listed (live and not hidden). */
  get listedCount(): number {
    return countBits(this.listed);
  }

  /** The ids of every listed server, in no particular order. */
  listedIds(): number[] {
    return slotsOf(this.listed, countBits(this.listed)).map((slot) => this.ids[slot]!);
  }

  /** Which filters name a game (the Game category), for ranks within a game. */
  setGameFilters(ids: readonly number[]): void {
    this.gameFilters = [...ids];
    this.ranks = undefined;
  }

  /**
   * A listed server's rank in Most Popular, from one walk of that order shared by every server and
   * made again at most once per `maxAgeMs` while servers change (undefined: not listed).
   */
  rankOf(id: number, maxAgeMs = 1000, nowMs = Date.now()): Rank | undefined {
    const slot = this.slotOf.get(id);
    if (slot === undefined || !hasBit(this.listed, slot)) return undefined;
    const ranks = this.currentRanks(maxAgeMs, nowMs);
    const position = ranks.position[slot]!;
    // Listed since the last walk: placed after the others until the next one.
    if (position === 0) return { position: ranks.of + 1, of: ranks.of + 1, game: null };
    const game = this.gameOf(slot);
    return {
      position,
      of: ranks.of,
      game:
        game === undefined || ranks.gamePosition[slot] === 0
          ? null
          : { filterId: game, position: ranks.gamePosition[slot]!, of: ranks.perGame.get(game)! },
    };
  }

  /**
   * Which walk of the order `rankOf` answers from now (walking again if due): a caller may keep
   * what it made of a server's rank until this changes.
   */
  rankWalk(maxAgeMs = 1000, nowMs = Date.now()): number {
    return this.currentRanks(maxAgeMs, nowMs).walk;
  }

  private currentRanks(maxAgeMs: number, nowMs: number): RankTable {
    const ranks = this.ranks;
    if (!ranks || (ranks.version !== this.version && nowMs - ranks.at >= maxAgeMs) || ranks.position.length < this.capacity) {
      return this.rankAll(nowMs);
    }
    return ranks;
  }

  private rankAll(nowMs: number): RankTable {
    this.ranks = walkRanks({
      order: this.sorts.orders.popular,
      length: this.sorts.length,
      capacity: this.capacity,
      listed: this.listed,
      gameFilters: this.gameFilters,
      filterBits: this.filterBits,
      walk: (this.ranks?.walk ?? 0) + 1,
      version: this.version,
      nowMs,
    });
    return this.ranks;
  }

  private gameOf(slot: number): number | undefined {
    // A slot's filters are its bits in the filters' bitsets: no array per server (100,000 of them
    // were 12 MB of heap and as many objects to mark).
    return this.gameFilters.find((id) => {
      const bits = this.filterBits.get(id);
      return bits !== undefined && hasBit(bits, slot);
    });
  }

  /** Adds a server or brings it up to date. */
  upsert(row: IndexRow): void {
    this.version++;
    let slot = this.slotOf.get(row.id);
    const name = row.name.toLowerCase();
    if (slot === undefined) {
      if (this.count === this.capacity) this.grow(this.capacity * 2);
      slot = this.count++;
      this.slotOf.set(row.id, slot);
      this.ids[slot] = row.id;
      this.names[slot] = name;
      this.postings.add(slot, name);
      this.recheckWords(slot);
      this.sorts.add(slot, row, this.bulk);
    } else {
      const old = this.names[slot]!;
      if (old !== name) {
        this.postings.rename(slot, old, name);
        this.names[slot] = name;
        this.recheckWords(slot);
      }
      this.sorts.update(slot, row);
      this.clearFilters(slot);
    }
    for (const id of row.filterIds) {
      let bits = this.filterBits.get(id);
      if (!bits) this.filterBits.set(id, (bits = new Uint32Array(this.capacity >>> 5)));
      setBit(bits, slot);
    }
    setBit(this.listed, slot, !row.hidden);
    setBit(this.boosted, slot, !row.hidden && row.lastBoostedAt !== null);
    setBit(this.onlineBits, slot, row.online === true);
    this.slotLimits[slot] = row.maxPlayers ?? -1;
    this.postings.compactIfStale(this.slotOf.values(), this.names);
  }

  /** Forgets a deleted server. */
  remove(id: number): void {
    this.version++;
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.sorts.remove(slot);
    this.clearFilters(slot);
    setBit(this.listed, slot, false);
    setBit(this.boosted, slot, false);
    setBit(this.onlineBits, slot, false);
    this.postings.remove(this.names[slot]!);
    this.names[slot] = '';
    this.recheckWords(slot);
    this.postings.compactIfStale(this.slotOf.values(), this.names);
  }

  /**
   * The ids of one page of matches in the sort's order, and how many match in all: the AND of the
   * listed servers' bitset, each chosen filter's and each word's (made once per word, kept current).
   */
  query(query: IndexQuery): { ids: number[]; total: number } {
    const base = query.sort === 'hot' ? this.boosted : this.listed;
    const filters: Uint32Array[] = [];
    for (const id of new Set(query.filterIds ?? [])) {
      const filter = this.filterBits.get(id);
      if (!filter) return { ids: [], total: 0 };
      filters.push(filter);
    }
    const words = [...new Set((query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean))];
    const few = this.fewMatches(words);
    if (few) return this.queryFew(few, base, filters, query);

    let bits: Uint32Array | undefined;
    const and = (other: Uint32Array) => {
      if (!bits) {
        // One scratch bitset for every query (they run one at a time): no 12 KB allocation per search.
        if (this.scratch.length !== base.length) this.scratch = new Uint32Array(base.length);
        bits = this.scratch;
        bits.set(base);
      }
      for (let w = 0; w < bits.length; w++) bits[w]! &= other[w]!;
    };
    for (const filter of filters) and(filter);
    for (const word of words) and(this.wordBits(word));
    if (asksLive(query)) {
      and(this.onlineBits);
      if (query.freeSlots || query.minPlayers !== undefined || query.maxPlayers !== undefined) this.keepPlayers(bits!, query);
    }
    const matches = bits ?? base;
    const total = countBits(matches);
    return { ids: this.page(matches, total, query), total };
  }

  /**
   * The slots whose names match every word, when some word's postings are short and not every
   * word's bitset is kept: a rare word is then answered from its few candidates, without making
   * (and keeping, and later collecting) a bitset as wide as the index. Undefined otherwise.
   */
  private fewMatches(words: string[]): number[] | undefined {
    if (words.length === 0 || words.every((word) => this.wordCache.has(word))) return undefined;
    const posting = this.postings.driver(words);
    if (posting === null) return [];
    if (posting === undefined || posting.length > this.fewMatchesMax) return undefined;
    const tests = words.map((word) => this.wordCache.get(word)?.test ?? this.wordTest(word));
    const seen = new Set<number>();
    for (let i = 0; i < posting.length; i++) {
      const slot = posting.slots[i]!;
      const name = this.names[slot]!;
      if (!seen.has(slot) && tests.every((test) => test(name))) seen.add(slot);
    }
    return [...seen];
  }

  /** `query` over a few candidate slots: each checked against the listed, filter and live conditions. */
  private queryFew(slots: number[], base: Uint32Array, filters: Uint32Array[], query: IndexQuery): { ids: number[]; total: number } {
    const live = asksLive(query);
    const kept = slots.filter(
      (slot) =>
        hasBit(base, slot) &&
        filters.every((bits) => hasBit(bits, slot)) &&
        (!live || (hasBit(this.onlineBits, slot) && this.playersFit(slot, query))),
    );
    return { ids: this.sorts.page(kept, query.sort, query.offset, query.limit), total: kept.length };
  }

  /** Whether a slot's player count is in the range asked for, with a free slot if asked. */
  private playersFit(slot: number, query: LiveFilter): boolean {
    const count = this.sorts.keys.players[slot]!;
    if (count < (query.minPlayers ?? 0) || count > (query.maxPlayers ?? Infinity)) return false;
    return !query.freeSlots || this.slotLimits[slot]! > count;
  }

  /** Clears the matches whose player count is out of the range, or that have no free slot. */
  private keepPlayers(bits: Uint32Array, query: LiveFilter): void {
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w]!;
      while (word) {
        const low = word & -word;
        if (!this.playersFit((w << 5) + 31 - Math.clz32(low), query)) bits[w]! &= ~low;
        word ^= low;
      }
    }
  }

  /**
   * Cuts the page out of the matches: by walking the sort's order while matches are many (a few
   * steps per match passed), by sorting them while few (cheaper than walking past every server).
   */
  private page(matches: Uint32Array, total: number, query: IndexQuery): number[] {
    const need = query.offset + query.limit;
    if (total <= query.offset) return [];
    const walkSteps = (Math.min(need, total) * this.sorts.length) / total;
    const sortSteps = 3 * total * Math.log2(total + 1);
    return walkSteps <= sortSteps
      ? this.walk(matches, query.sort, need, query)
      : this.sorts.page(slotsOf(matches, total), query.sort, query.offset, query.limit);
  }

  /** The slots whose name matches a word, as a bitset: found once through the postings, then kept current. */
  private wordBits(word: string): Uint32Array {
    const cached = this.wordCache.get(word);
    if (cached) return cached.bits;
    const test = this.wordTest(word);
    const bits = new Uint32Array(this.capacity >>> 5);
    const posting = this.postings.driver([word]);
    const check = (slot: number) => {
      if (test(this.names[slot]!)) setBit(bits, slot);
    };
    if (posting) for (let i = 0; i < posting.length; i++) check(posting.slots[i]!);
    else if (posting === undefined) for (let slot = 0; slot < this.count; slot++) check(slot);
    this.wordCache.set(word, { bits, test });
    if (this.wordCache.size > WORD_CACHE_SIZE) this.wordCache.delete(this.wordCache.keys().next().value as string);
    return bits;
  }

  /** Walks the sort's order until `need` matches are passed: for many matches, cheaper than sorting them. */
  private walk(bits: Uint32Array, sort: Sort, need: number, query: IndexQuery): number[] {
    const order = this.sorts.orders[sort];
    const page: number[] = [];
    let found = 0;
    for (let i = 0; i < this.sorts.length && found < need; i++) {
      const slot = order[i]!;
      if (!hasBit(bits, slot)) continue;
      if (found++ >= query.offset) page.push(this.ids[slot]!);
    }
    return page;
  }

  /** Whether a lower-case name matches one word of the search. */
  private wordTest(word: string): (name: string) => boolean {
    if (word.length >= SUBSTRING_MIN || !INDEXED_WORD.test(word)) return (name) => name.includes(word);
    const whole = new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(word)}(?:$|[^\\p{L}\\p{N}])`, 'u');
    return (name) => whole.test(name);
  }

  /** Brings the kept word bitsets up to date with a slot's new name. */
  private recheckWords(slot: number): void {
    for (const { bits, test } of this.wordCache.values()) setBit(bits, slot, test(this.names[slot]!));
  }

  /** Takes a slot out of every filter's bitset (about 60: cheaper than keeping each server's list). */
  private clearFilters(slot: number): void {
    for (const bits of this.filterBits.values()) clearBit(bits, slot);
  }

  private grow(capacity: number): void {
    const words = capacity >>> 5;
    this.ids = grown(this.ids, new Int32Array(capacity));
    this.listed = grown(this.listed, new Uint32Array(words));
    this.boosted = grown(this.boosted, new Uint32Array(words));
    this.onlineBits = grown(this.onlineBits, new Uint32Array(words));
    this.slotLimits = grown(this.slotLimits, new Int32Array(capacity));
    for (const [id, bits] of this.filterBits) this.filterBits.set(id, grown(bits, new Uint32Array(words)));
    this.sorts.grow(capacity, this.ids);
    this.capacity = capacity;
    // Its bitsets are the old size: made again on demand.
    this.wordCache.clear();
  }
}
