import type { LiveFilter } from './search-index.types';

/** Each slot's player count (-1: never polled) and player limit (-1: unknown), as the index keeps them. */
export interface PlayerFigures {
  players: Float64Array;
  limits: Int32Array;
}

/** Whether a slot's player count is in the range asked for, with a free slot if asked. */
export function playersFit({ players, limits }: PlayerFigures, slot: number, query: LiveFilter): boolean {
  const count = players[slot]!;
  if (count < (query.minPlayers ?? 0) || count > (query.maxPlayers ?? Infinity)) return false;
  return !query.freeSlots || limits[slot]! > count;
}

/** Clears the matches whose player count is out of the range, or that have no free slot. */
export function keepPlayers(bits: Uint32Array, figures: PlayerFigures, query: LiveFilter): void {
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word) {
      const low = word & -word;
      if (!playersFit(figures, (w << 5) + 31 - Math.clz32(low), query)) bits[w]! &= ~low;
      word ^= low;
    }
  }
}
