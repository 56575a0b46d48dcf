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
