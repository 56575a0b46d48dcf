import { popcount, slotsOf } from './bitset';

/**
 * A page cut from marks on order positions: each match (or each non-match, when those are fewer)
 * marks its position in the sort's order, and the page is read off the marks in position order,
 * skipping the offset a word of 32 at a time. It costs about the matches (or the others) plus a
 * pass over the marks, however sparse the matches are and however deep the page: walking the order
 * instead costs every position passed, about 100 per match when 1 server in 100 matches.
 */

/** Marks the position of every slot set in `slots` (a bitset of slots) in `marks`. */
export function markPositions(slots: Uint32Array, positions: Int32Array, marks: Uint32Array): void {
  markGathered(gather(slots, undefined), positions, marks);
}

/** Marks the position of every slot in `present` that is not in `matches`. */
export function markOthers(matches: Uint32Array, present: Uint32Array, positions: Int32Array, marks: Uint32Array): void {
  markGathered(gather(present, matches), positions, marks);
}

/** Slots gathered for marking (reused: cuts run one at a time). */
let gathered: Int32Array = new Int32Array(1024);
let gatheredCount = 0;

/** The slots set in `bits` (and not in `unless`), in `gathered`. */
function gather(bits: Uint32Array, unless: Uint32Array | undefined): Int32Array {
  let n = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = unless ? bits[w]! & ~unless[w]! : bits[w]!;
    if (word === 0) continue;
    if (n + 32 > gathered.length) gathered = grownTo(gathered, n + 32);
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      gathered[n++] = (w << 5) + 31 - Math.clz32(low);
    }
  }
  gatheredCount = n;
  return gathered;
}

/**
 * Marks the positions of the gathered slots. Looking positions up in a loop of its own, with no
 * branch to mispredict, lets the reads of the positions array (a cache miss each: 400 KB read at
 * random) be in flight together; found bit by bit while walking a bitset, each waited for the last.
 */
function markGathered(slots: Int32Array, positions: Int32Array, marks: Uint32Array): void {
  const n = gatheredCount;
  for (let i = 0; i < n; i++) slots[i] = positions[slots[i]!]!;
  for (let i = 0; i < n; i++) {
    const position = slots[i]!;
    marks[position >>> 5]! |= 1 << (position & 31);
  }
}

function grownTo(old: Int32Array, size: number): Int32Array {
  const next = new Int32Array(Math.max(size, old.length * 2));
  next.set(old);
  return next;
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

/** Every marked position, in order (`count` of them); clears the marks. */
export function placesOfMarks(marks: Uint32Array, count: number): Int32Array {
  const places = Int32Array.from(slotsOf(marks, count));
  marks.fill(0);
  return places;
}

/** The places in a sort's order of a list's matches (`others`: of every other slot, when those are fewer), in order. */
export interface Places {
  others: boolean;
  places: Int32Array;
}

/**
 * The ids at `offset` for `limit` among the matches, from their places: by index, or, when the
 * places are the others', at `offset` plus how many others come first. An other's place less its
 * index (how many matches come before it) never falls, so that count is a binary search.
 */
export function pageOfPlaces(
  { others, places }: Places,
  length: number,
  offset: number,
  limit: number,
  order: Int32Array,
  ids: Int32Array,
): number[] {
  const page: number[] = [];
  if (!others) {
    const end = Math.min(offset + limit, places.length);
    for (let i = offset; i < end; i++) page.push(ids[order[places[i]!]!]!);
    return page;
  }
  let lo = 0;
  let hi = places.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (places[mid]! - mid <= offset) lo = mid + 1;
    else hi = mid;
  }
  let next = lo;
  for (let at = offset + lo; at < length && page.length < limit; at++) {
    if (next < places.length && places[next] === at) next++;
    else page.push(ids[order[at]!]!);
  }
  return page;
}
