import type { Rank } from './search-index.types';
import { hasBit } from './bitset';

/** How many numbers `Ranks.into` writes for one server's rank. */
export const RANK_FIELDS = 5;
/** A rank's game field when the server has none (filter ids are positive). */
export const NO_GAME = -1;

/** One walk of Most Popular: every listed slot's position overall and within its game. */
export interface RankTable {
  /** Counts the walks: a caller may keep what it made of a rank until this changes. */
  walk: number;
  /** The index's version the walk saw. */
  version: number;
  /** When it was made (ms). */
  at: number;
  /** Each slot's position from 1; 0: not listed at the walk. */
  position: Int32Array;
  /** Each slot's position among its game's servers; 0: no game. */
  gamePosition: Int32Array;
  /** How many listed servers each game filter has. */
  perGame: Map<number, number>;
  /** How many servers are listed. */
  of: number;
}

/**
 * Walks the Most Popular order once, numbering the listed slots overall and within their game
 * (the first of `gameFilters` a slot has): one pass for every server's rank.
 */
export function walkRanks({
  order,
  length,
  capacity,
  listed,
  gameFilters,
  filterBits,
  walk,
  version,
  nowMs,
}: {
  order: Int32Array;
  length: number;
  capacity: number;
  listed: Uint32Array;
  gameFilters: readonly number[];
  filterBits: ReadonlyMap<number, Uint32Array>;
  walk: number;
  version: number;
  nowMs: number;
}): RankTable {
  const position = new Int32Array(capacity);
  const gamePosition = new Int32Array(capacity);
  // Each game's bitset looked up once, in catalogue order (a server's game is the first it has),
  // and counted in an array: this walk passes every listed server.
  const games = gameFilters.map((id) => filterBits.get(id));
  const counts = games.map(() => 0);
  let of = 0;
  for (let i = 0; i < length; i++) {
    const slot = order[i]!;
    if (!hasBit(listed, slot)) continue;
    position[slot] = ++of;
    for (let g = 0; g < games.length; g++) {
      const bits = games[g];
      if (bits && hasBit(bits, slot)) {
        gamePosition[slot] = ++counts[g]!;
        break;
      }
    }
  }
  const perGame = new Map(gameFilters.map((id, g) => [id, counts[g]!]));
  return { walk, version, at: nowMs, position, gamePosition, perGame, of };
}

/**
 * A slot's game: the first of `gameFilters` whose bitset has it. A slot's filters are its bits in
 * the filters' bitsets: no array per server (100,000 of them were 12 MB of heap and as many
 * objects to mark).
 */
export function gameOf(slot: number, gameFilters: readonly number[], filterBits: ReadonlyMap<number, Uint32Array>): number | undefined {
  return gameFilters.find((id) => {
    const bits = filterBits.get(id);
    return bits !== undefined && hasBit(bits, slot);
  });
}

/** What a walk of ranks is made from: the index as it stands. */
export type RankSource = Omit<Parameters<typeof walkRanks>[0], 'walk' | 'nowMs'>;

/**
 * Every listed server's rank, from one walk of Most Popular shared by all of them, walked again
 * at most once per `maxAgeMs` while servers change.
 */
export class Ranks {
  private table: RankTable | undefined;
  /** Walks made, never reset: a caller keeping a rank until the walk changes never sees a number twice. */
  private walks = 0;

  /** Forgets the walk (the game filters changed). */
  reset(): void {
    this.table = undefined;
  }

  /** The walk to read ranks from now, walked again when due. */
  current(source: () => RankSource, version: number, capacity: number, maxAgeMs: number, nowMs: number): RankTable {
    const table = this.table;
    if (table && (table.version === version || nowMs - table.at < maxAgeMs) && table.position.length >= capacity) return table;
    this.table = walkRanks({ ...source(), walk: ++this.walks, nowMs });
    return this.table;
  }

  /**
   * A listed slot's rank in a walk, as `RANK_FIELDS` numbers into `out` at `at`: position, of, the
   * game's filter id (`NO_GAME`: none), the position within the game and how many it has. One listed
   * since the walk comes after every other.
   */
  static into(slot: number, table: RankTable, game: number | undefined, out: Int32Array, at: number): void {
    const position = table.position[slot]!;
    const gamePosition = table.gamePosition[slot]!;
    // Listed since the last walk: placed after the others until the next one.
    const listedSince = position === 0;
    const inGame = !listedSince && game !== undefined && gamePosition !== 0;
    out[at] = listedSince ? table.of + 1 : position;
    out[at + 1] = listedSince ? table.of + 1 : table.of;
    out[at + 2] = inGame ? game : NO_GAME;
    out[at + 3] = inGame ? gamePosition : 0;
    out[at + 4] = inGame ? table.perGame.get(game)! : 0;
  }
}

/** A rank as `Ranks.into` wrote it at `at`, as an object; undefined for a position of 0 (not listed). */
export function rankFrom(values: Int32Array, at = 0): Rank | undefined {
  const [position, of, game, gamePosition, gameCount] = values.subarray(at, at + RANK_FIELDS);
  if (!position) return undefined;
  return { position, of: of!, game: game === NO_GAME ? null : { filterId: game!, position: gamePosition!, of: gameCount! } };
}
