import { SORTS, type Sort } from '../../../shared/schemas/server';
import { grown } from '../../lib/typed-arrays';
import { hasBit, setBit } from './bitset';
import { markOthers, markPositions, pageOfMarks, pageOfPlaces, placesOfMarks, type Places } from './search-index.marks';
import { byKeyThenId, placeOf, reorderMoved, writeSortKeys } from './search-index.reorder';
import type { IndexRow } from './search-index.types';

/** From this many changed slots on, `updateMany` makes each order with moves again at once. */
export const BULK_UPDATE = 16;

/**
 * How a page is cut from a bitset of matches: the cheaper way for its numbers (`auto`), or one way
 * always (tests check each against the plain rules).
 */
export type PageCut = 'auto' | 'walk' | 'marks';

/**
 * The search index's sort orders: each slot's key per sort, and every live slot in each sort's
 * order (key descending, then id ascending, as the SQL path orders), kept sorted as keys change.
 * A change moves a slot past the few slots between its old and new place, never the whole order.
 */
export class SortOrders {
  readonly keys = {} as Record<Sort, Float64Array>;
  readonly orders = {} as Record<Sort, Int32Array>;
  /** Counts each order's changes (a slot in, out or moved): what was cut from an order is good until it moves. */
  readonly changes = {} as Record<Sort, number>;
  /** Each slot's place in each order (`orders[sort][positions[sort][slot]] === slot`). */
  private readonly positions = {} as Record<Sort, Int32Array>;
  /** Live slots in every order. */
  length = 0;
  /** The slots in the orders, as a bitset. */
  private present = new Uint32Array(0);
  /** Each sort's places of every listed (and boosted) server, as `everyPage` last made them. */
  private readonly heldPlaces = new Map<string, Places & { matching: number; order: number }>();
  /** Marks on positions while a page is cut from them; all clear between cuts. */
  private marks = new Uint32Array(0);
  /** Each slot's server id, the tie-break: the index's own array. */
  private ids: Int32Array = new Int32Array(0);

  constructor(private readonly cutBy: PageCut = 'auto') {
    for (const sort of SORTS) {
      this.keys[sort] = new Float64Array(0);
      this.orders[sort] = new Int32Array(0);
      this.positions[sort] = new Int32Array(0);
      this.changes[sort] = 0;
    }
  }

  /** Makes room for `capacity` slots; `ids` is the index's id array of that size. */
  grow(capacity: number, ids: Int32Array): void {
    for (const sort of SORTS) {
      this.keys[sort] = grown(this.keys[sort], new Float64Array(capacity));
      this.orders[sort] = grown(this.orders[sort], new Int32Array(capacity));
      this.positions[sort] = grown(this.positions[sort], new Int32Array(capacity));
    }
    this.present = grown(this.present, new Uint32Array(capacity >>> 5));
    this.marks = new Uint32Array(capacity >>> 5);
    this.ids = ids;
  }

  /** A new slot with its keys, placed in every order (`bulk`: appended, for `sortAll` to order). */
  add(slot: number, row: IndexRow, bulk: boolean): void {
    writeSortKeys(this.keys, slot, row);
    if (bulk) {
      for (const sort of SORTS) {
        this.orders[sort][this.length] = slot;
        this.positions[sort][slot] = this.length;
        this.changes[sort]++;
      }
    } else for (const sort of SORTS) this.insertInOrder(sort, slot, this.length);
    setBit(this.present, slot);
    this.length++;
  }

  /** Sorts every order again after a bulk load. */
  sortAll(): void {
    for (const sort of SORTS) {
      const key = this.keys[sort];
      const ids = this.ids;
      this.orders[sort].subarray(0, this.length).sort(byKeyThenId(key, ids));
      this.renumber(sort, 0, this.length);
      this.changes[sort]++;
    }
  }

  /**
   * The ids of one page of the matches (a bitset of `total` slots): by walking the sort's order
   * while the page is near its start for the matches' density (a few steps per position passed),
   * else from marks on the matches' positions, or on the others' when those are fewer
   * (search-index.marks.ts): steps for each marked slot, none per position passed.
   */
  cut(matches: Uint32Array, total: number, query: { sort: Sort; offset: number; limit: number }): number[] {
    const { sort, offset, limit } = query;
    const need = offset + limit;
    if (total <= offset || limit <= 0) return [];
    if (this.cutBy === 'walk' || (this.cutBy === 'auto' && this.walkIsCheaper(matches.length, total, need)))
      return this.walk(matches, sort, offset, need);
    const unmarked = this.mark(matches, total, sort);
    return pageOfMarks(this.marks, { length: this.length, unmarked, offset, limit }, this.orders[sort], this.ids);
  }

  /**
   * A page of every listed (or, for Hot, boosted) server, `base`: from their places in the sort's
   * order, held until that order or (by `matching`) the servers listed change, so any page at any
   * depth is a slice or a binary search (the others, the hidden servers, are few). Made again only
   * when walking to the page would cost more (page 1 while votes move the order is a short walk).
   */
  everyPage(
    base: Uint32Array,
    kind: string,
    total: number,
    matching: number,
    query: { sort: Sort; offset: number; limit: number },
  ): number[] {
    if (total <= query.offset || query.limit <= 0) return [];
    const key = `${query.sort}|${kind}`;
    const order = this.changes[query.sort];
    let held = this.heldPlaces.get(key);
    if (!held || held.matching !== matching || held.order !== order) {
      if (this.cutBy === 'auto' && this.walkIsCheaper(base.length, total, query.offset + query.limit)) return this.cut(base, total, query);
      held = { ...this.placesOf(base, total, query.sort), matching, order };
      this.heldPlaces.set(key, held);
    }
    return this.pageOf(held, query);
  }

  /** Whether walking to the `need`th of `total` matches costs less than marking them (or the others). */
  walkIsCheaper(words: number, total: number, need: number): boolean {
    const walkSteps = (Math.min(need, total) * this.length) / total;
    return walkSteps <= words / 2 + 2 * Math.min(total, this.length - total);
  }

  /** Whether pages are cut by walking the orders only (tests): then no places are made. */
  get walksOnly(): boolean {
    return this.cutBy === 'walk';
  }

  /** The places of the matches (a bitset of `total` slots) in the sort's order, or of the others when fewer. */
  private placesOf(matches: Uint32Array, total: number, sort: Sort): Places {
    const others = this.mark(matches, total, sort);
    return { others, places: placesOfMarks(this.marks, others ? this.length - total : total) };
  }

  /** Marks the places of the matches in the sort's order, or of the others when fewer; true for the others. */
  private mark(matches: Uint32Array, total: number, sort: Sort): boolean {
    const others = this.length - total < total;
    if (others) markOthers(matches, this.present, this.positions[sort], this.marks);
    else markPositions(matches, this.positions[sort], this.marks);
    return others;
  }

  /** A page of the matches whose places `placesOf` made (the order unchanged since). */
  private pageOf(places: Places, query: { sort: Sort; offset: number; limit: number }): number[] {
    return pageOfPlaces(places, this.length, query.offset, query.limit, this.orders[query.sort], this.ids);
  }

  /** Walks the sort's order until `need` matches are passed: for many matches, cheaper than sorting them. */
  private walk(bits: Uint32Array, sort: Sort, offset: number, need: number): number[] {
    const order = this.orders[sort];
    const page: number[] = [];
    let found = 0;
    for (let i = 0; i < this.length && found < need; i++) {
      const slot = order[i]!;
      if (!hasBit(bits, slot)) continue;
      if (found++ >= offset) page.push(this.ids[slot]!);
    }
    return page;
  }

  /**
   * The ids of `slots` from `offset` for `limit` in the sort's order: for a few matches, cheaper
   * than walking the whole order. Only the slots that can be on the page are sorted by the full
   * order: those whose key reaches the `offset + limit`-th largest, found by sorting the bare keys
   * natively. Sorting every match by a comparator took a tenth of a search's time.
   */
  page(slots: number[], sort: Sort, offset: number, limit: number): number[] {
    const key = this.keys[sort];
    const ids = this.ids;
    const need = offset + limit;
    if (limit <= 0) return [];
    let candidates = slots;
    if (slots.length > 2 * need) {
      const keys = new Float64Array(slots.length);
      for (let i = 0; i < slots.length; i++) keys[i] = key[slots[i]!]!;
      keys.sort();
      // Every slot above it is on the page or before it; of those equal to it, the lowest ids are.
      // (Keys are counts and times, never NaN, which would sort last and keep nothing.)
      const threshold = keys[slots.length - need]!;
      candidates = slots.filter((slot) => key[slot]! >= threshold);
    }
    candidates.sort(byKeyThenId(key, ids));
    return candidates.slice(offset, need).map((slot) => ids[slot]!);
  }

  /**
   * New keys for a slot already placed: found in each order by the place kept for it, moved by the
   * new ones, so a vote moves a server past the few with its count and an order whose key did not
   * move is left be.
   */
  update(slot: number, row: IndexRow): void {
    const was: number[] = [];
    for (const sort of SORTS) was.push(this.findInOrder(sort, slot, this.length));
    writeSortKeys(this.keys, slot, row);
    for (let i = 0; i < SORTS.length; i++) this.moveInOrder(SORTS[i]!, slot, this.length, was[i]!);
  }

  /**
   * New keys for many slots already placed (a read of changes). Each move shifts every slot between
   * the old and the new place, and when thousands of servers share a count (most have a handful of
   * likes) a vote moves one past thousands: past `BULK_UPDATE` slots, an order with moves is made
   * again in three passes instead (the moved slots taken out, merged back in, positions written),
   * about as much as a dozen such moves. A slot given twice takes its last keys.
   */
  updateMany(items: ReadonlyArray<{ slot: number; row: IndexRow }>): void {
    if (items.length < BULK_UPDATE) {
      for (const { slot, row } of items) this.update(slot, row);
      return;
    }
    const before = SORTS.map((sort) => Float64Array.from(items, ({ slot }) => this.keys[sort][slot]!));
    for (const { slot, row } of items) writeSortKeys(this.keys, slot, row);
    const seen = new Uint8Array(this.ids.length);
    SORTS.forEach((sort, s) => {
      const moved: number[] = [];
      items.forEach(({ slot }, i) => {
        if (seen[slot] === 1 || !hasBit(this.present, slot) || before[s]![i] === this.keys[sort][slot]) return;
        seen[slot] = 1;
        moved.push(slot);
      });
      if (moved.length > 0) this.reorder(sort, moved, seen);
    });
  }

  /** Takes a slot out of every order (its keys still the ones it was placed by). */
  remove(slot: number): void {
    for (const sort of SORTS) this.removeFromOrder(sort, slot, this.length);
    setBit(this.present, slot, false);
    this.length--;
  }

  /** Puts a slot into the sort's order, which holds `length` slots before it. */
  private insertInOrder(sort: Sort, slot: number, length: number): void {
    const order = this.orders[sort];
    const at = placeOf(order, length, this.keys[sort], this.ids, slot);
    order.copyWithin(at + 1, at, length);
    order[at] = slot;
    this.renumber(sort, at, length + 1);
    this.changes[sort]++;
  }

  /** Where a slot stands in the sort's order of `length` slots; -1 if absent. */
  private findInOrder(sort: Sort, slot: number, length: number): number {
    const at = this.positions[sort][slot]!;
    return at < length && this.orders[sort][at] === slot ? at : -1;
  }

  /** Takes a slot out of the sort's order of `length` slots. */
  private removeFromOrder(sort: Sort, slot: number, length: number): void {
    const at = this.findInOrder(sort, slot, length);
    if (at < 0) return;
    this.orders[sort].copyWithin(at, at + 1, length);
    this.renumber(sort, at, length - 1);
    this.changes[sort]++;
  }

  /** Puts the `moved` slots where their new keys belong in the sort's order (`reorderMoved`). */
  private reorder(sort: Sort, moved: number[], marks: Uint8Array): void {
    reorderMoved(this.orders[sort], this.length, moved, marks, this.keys[sort], this.ids);
    this.renumber(sort, 0, this.length);
    this.changes[sort]++;
  }

  /** Writes down the positions of the slots at `from..to-1` of the sort's order (after they moved). */
  private renumber(sort: Sort, from: number, to: number): void {
    const order = this.orders[sort];
    const positions = this.positions[sort];
    for (let i = from; i < to; i++) positions[order[i]!] = i;
  }

  /**
   * Moves a slot standing at `from` to where its new key belongs, shifting only the slots in
   * between. The place is searched for among the others, as if the slot were out of the order.
   */
  private moveInOrder(sort: Sort, slot: number, length: number, from: number): void {
    if (from < 0) {
      this.insertInOrder(sort, slot, length - 1);
      return;
    }
    const order = this.orders[sort];
    const lo = placeOf(order, length, this.keys[sort], this.ids, slot, from);
    if (lo === from) return;
    if (lo < from) order.copyWithin(lo + 1, lo, from);
    else order.copyWithin(from, from + 1, lo + 1);
    order[lo] = slot;
    this.renumber(sort, Math.min(lo, from), Math.max(lo, from) + 1);
    this.changes[sort]++;
  }
}
