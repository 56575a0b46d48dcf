import { SORTS, type Sort } from '../../../shared/schemas/server';
import { grown } from '../../lib/typed-arrays';
import { hasBit, slotsOf } from './bitset';
import type { IndexRow } from './search-index.types';

/**
 * The search index's sort orders: each slot's key per sort, and every live slot in each sort's
 * order (key descending, then id ascending, as the SQL path orders), kept sorted as keys change.
 * A change moves a slot past the few slots between its old and new place, never the whole order.
 */
export class SortOrders {
  readonly keys = {} as Record<Sort, Float64Array>;
  readonly orders = {} as Record<Sort, Int32Array>;
  /** Live slots in every order. */
  length = 0;
  /** Each slot's server id, the tie-break: the index's own array. */
  private ids: Int32Array = new Int32Array(0);

  constructor() {
    for (const sort of SORTS) {
      this.keys[sort] = new Float64Array(0);
      this.orders[sort] = new Int32Array(0);
    }
  }

  /** Makes room for `capacity` slots; `ids` is the index's id array of that size. */
  grow(capacity: number, ids: Int32Array): void {
    for (const sort of SORTS) {
      this.keys[sort] = grown(this.keys[sort], new Float64Array(capacity));
      this.orders[sort] = grown(this.orders[sort], new Int32Array(capacity));
    }
    this.ids = ids;
  }

  /** A new slot with its keys, placed in every order (`bulk`: appended, for `sortAll` to order). */
  add(slot: number, row: IndexRow, bulk: boolean): void {
    this.setKeys(slot, row);
    if (bulk) for (const sort of SORTS) this.orders[sort][this.length] = slot;
    else for (const sort of SORTS) this.insertInOrder(sort, slot, this.length);
    this.length++;
  }

  /** Sorts every order again after a bulk load. */
  sortAll(): void {
    for (const sort of SORTS) {
      const key = this.keys[sort];
      const ids = this.ids;
      this.orders[sort].subarray(0, this.length).sort((a, b) => key[b]! - key[a]! || ids[a]! - ids[b]!);
    }
  }

  /**
   * The ids of one page of the matches (a bitset of `total` slots): by walking the sort's order
   * while matches are many (a few steps per match passed), by sorting them while few (cheaper than
   * walking past every server).
   */
  cut(matches: Uint32Array, total: number, query: { sort: Sort; offset: number; limit: number }): number[] {
    const need = query.offset + query.limit;
    if (total <= query.offset) return [];
    const walkSteps = (Math.min(need, total) * this.length) / total;
    const sortSteps = 3 * total * Math.log2(total + 1);
    return walkSteps <= sortSteps
      ? this.walk(matches, query.sort, query.offset, need)
      : this.page(slotsOf(matches, total), query.sort, query.offset, query.limit);
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
    candidates.sort((a, b) => key[b]! - key[a]! || ids[a]! - ids[b]!);
    return candidates.slice(offset, need).map((slot) => ids[slot]!);
  }

  /**
   * New keys for a slot already placed: found in each order by its old keys, moved by the new
   * ones, so a vote moves a server past the few with its count and an order whose key did not
   * move is left be.
   */
  update(slot: number, row: IndexRow): void {
    const was: number[] = [];
    for (const sort of SORTS) was.push(this.findInOrder(sort, slot, this.length));
    this.setKeys(slot, row);
    for (let i = 0; i < SORTS.length; i++) this.moveInOrder(SORTS[i]!, slot, this.length, was[i]!);
  }

  /** Takes a slot out of every order (its keys still the ones it was placed by). */
  remove(slot: number): void {
    for (const sort of SORTS) this.removeFromOrder(sort, slot, this.length);
    this.length--;
  }

  private setKeys(slot: number, row: IndexRow): void {
    this.keys.likes[slot] = row.likes;
    this.keys.popular[slot] = row.likes + row.totalBoosts + row.totalJoins;
    this.keys.hot[slot] = row.lastBoostedAt ? row.lastBoostedAt.getTime() : -Infinity;
    this.keys.new[slot] = row.createdAt.getTime();
    // Never polled: no count, so after every polled server (the SQL order does the same).
    this.keys.players[slot] = row.online === null ? -1 : row.currentPlayers;
    this.keys.joins[slot] = row.totalJoins;
    this.keys.votes[slot] = row.monthVotes;
  }

  /**
   * Where a slot with its current key belongs among the first `length` of the sort's order: key
   * descending, then id ascending. With `skip`, among the others, as if the slot standing there were out.
   */
  private positionOf(sort: Sort, slot: number, length: number, skip = -1): number {
    const key = this.keys[sort];
    const order = this.orders[sort];
    const k = key[slot]!;
    const id = this.ids[slot]!;
    let lo = 0;
    let hi = skip < 0 ? length : length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = order[skip < 0 || mid < skip ? mid : mid + 1]!;
      const ko = key[other]!;
      if (ko > k || (ko === k && this.ids[other]! < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Puts a slot into the sort's order, which holds `length` slots before it. */
  private insertInOrder(sort: Sort, slot: number, length: number): void {
    const order = this.orders[sort];
    const at = this.positionOf(sort, slot, length);
    order.copyWithin(at + 1, at, length);
    order[at] = slot;
  }

  /** Where a slot stands in the sort's order of `length` slots (its keys still the ones it was placed by); -1 if absent. */
  private findInOrder(sort: Sort, slot: number, length: number): number {
    const order = this.orders[sort];
    const at = this.positionOf(sort, slot, length);
    return order[at] === slot ? at : order.subarray(0, length).indexOf(slot);
  }

  /** Takes a slot out of the sort's order of `length` slots (its keys still the ones it was placed by). */
  private removeFromOrder(sort: Sort, slot: number, length: number): void {
    const at = this.findInOrder(sort, slot, length);
    if (at >= 0) this.orders[sort].copyWithin(at, at + 1, length);
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
    const lo = this.positionOf(sort, slot, length, from);
    if (lo < from) order.copyWithin(lo + 1, lo, from);
    else if (lo > from) order.copyWithin(from, from + 1, lo + 1);
    order[lo] = slot;
  }
}
