import { popcount } from './bitset';

/**
 * A page cut from marks on order positions: each match (or each non-match, when those are fewer)
 * marks its position in the sort's order, and the page is read off the marks in position order,
 * skipping the offset a word of 32 at a time. It costs about the matches (or the others) plus a
 * pass over the marks, however sparse the matches are and however deep the page: walking the order
 * instead costs every position passed, about 100 per match when 1 server in 100 matches.
 */

/** Marks the position of every slot set in `slots` (a bitset of slots) in `marks`. */
export function markPositions(slots: Uint32Array, positions: Int32Array, marks: Uint32Array): void {
  for (let w = 0; w < slots.length; w++) markWord(slots[w]!, w, positions, marks);
}

/** Marks the position of every slot in `present` that is not in `matches`. */
export function markOthers(matches: Uint32Array, present: Uint32Array, positions: Int32Array, marks: Uint32Array): void {
  for (let w = 0; w < matches.length; w++) markWord(present[w]! & ~matches[w]!, w, positions, marks);
}

function markWord(word: number, w: number, positions: Int32Array, marks: Uint32Array): void {
  while (word !== 0) {
    const low = word & -word;
    word ^= low;
    const position = positions[(w << 5) + 31 - Math.clz32(low)]!;
    marks[position >>> 5]! |= 1 << (position & 31);
  }
}

/**
 * The ids at `offset` for `limit` among the positions `0..length-1` that are marked (or, with
 * `unmarked`, that are not), in position order; clears the marks for the next cut.
 */
export function pageOfMarks(
  marks: Uint32Array,
  { length, unmarked, offset, limit }: { length: number; unmarked: boolean; offset: number; limit: number },
  order: Int32Array,
  ids: Int32Array,
): number[] {
  const page: number[] = [];
  const words = (length + 31) >>> 5;
  const tail = length & 31;
  let skip = offset;
  for (let w = 0; w < words && page.length < limit; w++) {
    let word = unmarked ? ~marks[w]! : marks[w]!;
    // Positions past the order's end are nobody's.
    if (w === words - 1 && tail !== 0) word &= (1 << tail) - 1;
    if (word === 0) continue;
    if (skip > 0) {
      const here = popcount(word);
      if (here <= skip) {
        skip -= here;
        continue;
      }
    }
    while (word !== 0 && page.length < limit) {
      const low = word & -word;
      word ^= low;
      if (skip > 0) skip--;
      else page.push(ids[order[(w << 5) + 31 - Math.clz32(low)]!]!);
    }
  }
  marks.fill(0);
  return page;
}
