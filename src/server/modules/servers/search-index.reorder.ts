import type { Sort } from '../../../shared/schemas/server';
import type { IndexRow } from './search-index.types';

/** Writes a row's key in every sort at its slot. */
export function writeSortKeys(keys: Record<Sort, Float64Array>, slot: number, row: IndexRow): void {
  keys.likes[slot] = row.likes;
  keys.popular[slot] = row.likes + row.totalBoosts + row.totalJoins;
  keys.hot[slot] = row.lastBoostedAt ? row.lastBoostedAt.getTime() : -Infinity;
  keys.new[slot] = row.createdAt.getTime();
  // Never polled: no count, so after every polled server (the SQL order does the same).
  keys.players[slot] = row.online === null ? -1 : row.currentPlayers;
  keys.joins[slot] = row.totalJoins;
  keys.votes[slot] = row.monthVotes;
}

/**
 * The order of every sort: key descending, then id ascending, as the SQL path orders. A negative
 * answer puts slot `a` first. (Two keys of -Infinity, never boosted, give NaN and fall to the ids.)
 */
export const byKeyThenId =
  (key: Float64Array, ids: Int32Array) =>
  (a: number, b: number): number =>
    key[b]! - key[a]! || ids[a]! - ids[b]!;

/**
 * Puts the `moved` slots (marked in `marks`, cleared on the way) where their keys now belong in the
 * first `length` of `order`: the others kept in order, the moved sorted, the two merged from the
 * back in place. Three passes over the order, however far each slot moved.
 */
export function reorderMoved(
  order: Int32Array,
  length: number,
  moved: number[],
  marks: Uint8Array,
  key: Float64Array,
  ids: Int32Array,
): void {
  const compare = byKeyThenId(key, ids);
  let kept = 0;
  for (let i = 0; i < length; i++) {
    const slot = order[i]!;
    if (marks[slot] === 0) order[kept++] = slot;
  }
  for (const slot of moved) marks[slot] = 0;
  moved.sort(compare);
  let i = kept - 1;
  let j = moved.length - 1;
  for (let at = length - 1; j >= 0; at--) {
    const m = moved[j]!;
    // The kept slot goes last when it sorts after the moved one.
    if (i >= 0 && compare(order[i]!, m) > 0) order[at] = order[i--]!;
    else {
      order[at] = m;
      j--;
    }
  }
}

/**
 * Where a slot with its current key belongs among the first `length` of `order`: key descending,
 * then id ascending. With `skip`, among the others, as if the slot standing there were out.
 */
export function placeOf(order: Int32Array, length: number, key: Float64Array, ids: Int32Array, slot: number, skip = -1): number {
  const k = key[slot]!;
  const id = ids[slot]!;
  let lo = 0;
  let hi = skip < 0 ? length : length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const other = order[skip < 0 || mid < skip ? mid : mid + 1]!;
    const ko = key[other]!;
    if (ko > k || (ko === k && ids[other]! < id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
