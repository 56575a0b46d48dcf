import { andInto, countBits, hasBit, setBit, slotsOf } from './bitset';
import { grown } from '../../lib/typed-arrays';
import { IdSlots } from '../../lib/id-slots';
import { SortOrders, type PageCut } from './search-index.orders';
import { asksLive, type IndexQuery, type IndexRow, type Rank } from './search-index.types';
import { NamePostings } from './search-index.postings';
import { gameOf, RANK_FIELDS, rankFrom, Ranks, type RankSource, type RankTable } from './search-index.ranks';
import { keepPlayers, playersFit } from './search-index.live';
import { WordBits } from './search-index.word-bits';
import { PagePrefixes, prefixKey, prefixLength, type Versions } from './search-index.prefixes';
import { FilterBitsets } from './search-index.filters';

export { asksLive, type IndexQuery, type IndexRow, type LiveFilter, type Rank } from './search-index.types';

/** A search whose words match at most this many names is answered from them, without a bitset. */
const FEW_MATCHES = 256;

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
  private readonly slotOf = new IdSlots();
  /** Live and not hidden. */
  private listed = new Uint32Array(0);
  /** Listed and boosted at least once (the `hot` list). */
  private boosted = new Uint32Array(0);
  /** Polled and answering (the game poller's `online`). */
  private onlineBits = new Uint32Array(0);
  /** Each slot's player limit from the game, -1 when unknown. */
  private slotLimits = new Int32Array(0);
  private readonly filters = new FilterBitsets();
  private readonly sorts: SortOrders;
  /** Inside `load`: new slots are appended to the orders unsorted. */
  private bulk = false;
  private readonly postings = new NamePostings();
  /** Bumped by every change: the ranks know when they are out of date. */
  private version = 0;
  /** Bumped by every change to which servers match anything: names, filters, listed, boosted; a new or deleted server. */
  private matching = 0;
  /** Bumped when a server goes online or off: only searches for online servers depend on it (polls flip it often). */
  private onlineChanges = 0;
  /** The first matches of recent searches (search-index.prefixes.ts). */
  private readonly prefixes = new PagePrefixes();
  /** Walks of Most Popular, which ranks are read from. */
  private readonly ranks = new Ranks();
  /** The Game category's filters, in catalogue order: a server's game is the first it has. */
  private gameFilters: readonly number[] = [];
  private readonly fewMatchesMax: number;
  /** The matches of the query being answered (see `query`). */
  private scratch = new Uint32Array(0);
  /** Recent search words and the slots whose names match them. */
  private readonly words = new WordBits();
  /** The listed and boosted servers' counts at a `matching` count (a vote changes neither). */
  private counted = { matching: -1, listed: 0, boosted: 0 };

  /** `fewMatches`: searches matching at most this many names skip the bitset (tests: 0); `cut`: how pages are cut (tests: each way). */
  constructor({ fewMatches = FEW_MATCHES, cut = 'auto' }: { fewMatches?: number; cut?: PageCut } = {}) {
    this.fewMatchesMax = fewMatches;
    this.sorts = new SortOrders(cut);
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

  /** After `load`: sorts every order again and packs the name postings into one block. */
  finishLoad(): void {
    this.sorts.sortAll();
    this.postings.pack();
  }

  /** How many servers are listed (live and not hidden). */
  get listedCount(): number {
    return this.baseCount(this.listed);
  }

  /** The listed or the boosted servers' count, counted again only after a change. */
  private baseCount(base: Uint32Array): number {
    if (this.counted.matching !== this.matching)
      this.counted = { matching: this.matching, listed: countBits(this.listed), boosted: countBits(this.boosted) };
    return base === this.boosted ? this.counted.boosted : this.counted.listed;
  }

  /** The ids of every listed server, in no particular order. */
  listedIds(): number[] {
    return slotsOf(this.listed, countBits(this.listed)).map((slot) => this.ids[slot]!);
  }

  /** Which filters name a game (the Game category), for ranks within a game. */
  setGameFilters(ids: readonly number[]): void {
    this.gameFilters = [...ids];
    this.ranks.reset();
  }

  /**
   * A listed server's rank in Most Popular, from one walk of that order shared by every server and
   * made again at most once per `maxAgeMs` while servers change (undefined: not listed).
   */
  rankOf(id: number, maxAgeMs = 1000, nowMs = Date.now()): Rank | undefined {
    const values = new Int32Array(RANK_FIELDS);
    this.ranksInto([id], values, maxAgeMs, nowMs);
    return rankFrom(values);
  }

  /** `rankOf` each of `ids` from one walk, into `out` (zeroed) as `Ranks.into` writes them (left 0: not listed). */
  ranksInto(ids: readonly number[], out: Int32Array, maxAgeMs = 1000, nowMs = Date.now()): void {
    const table = this.currentRanks(maxAgeMs, nowMs);
    ids.forEach((id, i) => {
      const slot = this.slotOf.get(id);
      if (slot !== undefined && hasBit(this.listed, slot))
        Ranks.into(slot, table, gameOf(slot, this.gameFilters, this.filters.bits), out, i * RANK_FIELDS);
    });
  }

  private currentRanks(maxAgeMs: number, nowMs: number): RankTable {
    const source = (): RankSource => ({
      order: this.sorts.orders.popular,
      length: this.sorts.length,
      capacity: this.capacity,
      listed: this.listed,
      gameFilters: this.gameFilters,
      filterBits: this.filters.bits,
      version: this.version,
    });
    return this.ranks.current(source, this.version, this.capacity, maxAgeMs, nowMs);
  }

  /**
   * Adds servers or brings them up to date, as `upsert` one by one would (a read of changes):
   * their moves in the sort orders made together (`SortOrders.updateMany`).
   */
  upsertMany(rows: Iterable<IndexRow>): void {
    const changed: Array<{ slot: number; row: IndexRow }> = [];
    for (const row of rows) this.upsert(row, changed);
    this.sorts.updateMany(changed);
  }

  /** Adds a server or brings it up to date (with `deferred`, its new keys are left there for `upsertMany`). */
  upsert(row: IndexRow, deferred?: Array<{ slot: number; row: IndexRow }>): void {
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
      this.words.recheck(slot, name);
      this.sorts.add(slot, row, this.bulk);
      this.matching++;
    } else {
      const old = this.names[slot]!;
      if (old !== name) {
        this.postings.rename(slot, old, name);
        this.names[slot] = name;
        this.words.recheck(slot, name);
        this.matching++;
      }
      if (deferred) deferred.push({ slot, row });
      else this.sorts.update(slot, row);
    }
    if (this.filters.assign(slot, row.filterIds)) this.matching++;
    const listed = !row.hidden;
    const boosted = listed && row.lastBoostedAt !== null;
    const online = row.online === true;
    if (hasBit(this.listed, slot) !== listed || hasBit(this.boosted, slot) !== boosted) this.matching++;
    if (hasBit(this.onlineBits, slot) !== online) this.onlineChanges++;
    setBit(this.listed, slot, listed);
    setBit(this.boosted, slot, boosted);
    setBit(this.onlineBits, slot, online);
    this.slotLimits[slot] = row.maxPlayers ?? -1;
    this.postings.compactIfStale(this.slotOf.slots(), this.names);
  }

  /** Forgets a deleted server. */
  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.version++;
    this.matching++;
    this.slotOf.delete(id);
    this.sorts.remove(slot);
    this.filters.clear(slot);
    setBit(this.listed, slot, false);
    setBit(this.boosted, slot, false);
    setBit(this.onlineBits, slot, false);
    this.postings.remove(this.names[slot]!);
    this.names[slot] = '';
    this.words.recheck(slot, '');
    this.postings.compactIfStale(this.slotOf.slots(), this.names);
  }

  /**
   * The ids of one page of matches in the sort's order, and how many match in all: the AND of the
   * listed servers' bitset, each chosen filter's and each word's (made once per word, kept current).
   */
  query(query: IndexQuery): { ids: number[]; total: number } {
    const base = query.sort === 'hot' ? this.boosted : this.listed;
    const filterIds = [...new Set(query.filterIds ?? [])];
    const filters: Uint32Array[] = [];
    for (const id of filterIds) {
      const filter = this.filters.get(id);
      if (!filter) return { ids: [], total: 0 };
      filters.push(filter);
    }
    const words = [...new Set((query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean))];
    const names = { count: this.count, capacity: this.capacity, names: this.names, postings: this.postings };
    const few = this.words.fewMatches(words, names, this.fewMatchesMax);
    if (few) return this.queryFew(few, base, filters, query);

    const live = asksLive(query);
    if (filters.length === 0 && words.length === 0 && !live && !this.sorts.walksOnly) {
      const total = this.baseCount(base);
      return { ids: this.sorts.everyPage(base, base === this.boosted ? 'boosted' : 'listed', total, this.matching, query), total };
    }
    const byPlayers = query.freeSlots || query.minPlayers !== undefined || query.maxPlayers !== undefined;
    // Player counts move with every poll and are no part of `matching`: such a search is never held.
    const key = byPlayers ? undefined : prefixKey(query.sort, live, filterIds, words);
    const versions: Versions = { matching: this.matching, online: live ? this.onlineChanges : 0, order: this.sorts.changes[query.sort] };
    const held = key === undefined ? undefined : this.prefixes.page(key, versions, query.offset, query.limit);
    if (held) return held;

    const sources = [...filters, ...words.map((word) => this.words.of(word, names))];
    if (live) sources.push(this.onlineBits);
    let matches = base;
    let total: number;
    if (sources.length === 0) total = this.baseCount(base);
    else {
      // One scratch bitset for every query (they run one at a time): no 12 KB allocation per search.
      if (this.scratch.length !== base.length) this.scratch = new Uint32Array(base.length);
      matches = this.scratch;
      total = andInto(matches, base, sources);
      if (byPlayers) {
        keepPlayers(matches, { players: this.sorts.keys.players, limits: this.slotLimits }, query);
        total = countBits(matches);
      }
    }
    const length = key === undefined ? undefined : prefixLength(query.offset + query.limit);
    if (key === undefined || length === undefined || !this.prefixes.askedBefore(key, versions))
      return { ids: this.sorts.cut(matches, total, query), total };
    const prefix = this.sorts.cut(matches, total, { sort: query.sort, offset: 0, limit: length });
    this.prefixes.hold(key, versions, total, prefix);
    return { ids: prefix.slice(query.offset, query.offset + query.limit), total };
  }

  /** `query` over a few candidate slots: each checked against the listed, filter and live conditions. */
  private queryFew(slots: number[], base: Uint32Array, filters: Uint32Array[], query: IndexQuery): { ids: number[]; total: number } {
    const live = asksLive(query);
    const figures = { players: this.sorts.keys.players, limits: this.slotLimits };
    const kept = slots.filter(
      (slot) =>
        hasBit(base, slot) &&
        filters.every((bits) => hasBit(bits, slot)) &&
        (!live || (hasBit(this.onlineBits, slot) && playersFit(figures, slot, query))),
    );
    return { ids: this.sorts.page(kept, query.sort, query.offset, query.limit), total: kept.length };
  }

  private grow(capacity: number): void {
    this.matching++;
    const words = capacity >>> 5;
    this.ids = grown(this.ids, new Int32Array(capacity));
    this.listed = grown(this.listed, new Uint32Array(words));
    this.boosted = grown(this.boosted, new Uint32Array(words));
    this.onlineBits = grown(this.onlineBits, new Uint32Array(words));
    this.slotLimits = grown(this.slotLimits, new Int32Array(capacity));
    this.filters.grow(words);
    this.sorts.grow(capacity, this.ids);
    this.capacity = capacity;
    this.words.clear();
  }
}
