import type { Sort } from '../../../shared/schemas/server';

/** What the index keeps of a server: its name, filters and the keys of every sort. */
export interface IndexRow {
  id: number;
  name: string;
  hidden: boolean;
  filterIds: readonly number[];
  likes: number;
  totalBoosts: number;
  totalJoins: number;
  currentPlayers: number;
  /** From the game poller: null while never polled ("not connected"). */
  online: boolean | null;
  maxPlayers: number | null;
  monthVotes: number;
  createdAt: Date;
  lastBoostedAt: Date | null;
}

/** A row as the index's change reads return it: with the other figures a server's card shows. */
export interface ChangedRow extends IndexRow {
  dislikes: number;
  views: number;
}

/**
 * What the game poller says a listed server must be: online now, with a free slot, with players in
 * a range. A server never polled is none of these: it has no player count to compare.
 */
export interface LiveFilter {
  online?: boolean | undefined;
  freeSlots?: boolean | undefined;
  minPlayers?: number | undefined;
  maxPlayers?: number | undefined;
}

/** A page of the public list, as `GET /api/servers` asks for it. */
export interface IndexQuery extends LiveFilter {
  q?: string | undefined;
  filterIds?: readonly number[];
  sort: Sort;
  limit: number;
  offset: number;
}

/** Whether a query asks anything of the game's live state. */
export const asksLive = (q: LiveFilter): boolean =>
  Boolean(q.online || q.freeSlots) || q.minPlayers !== undefined || q.maxPlayers !== undefined;

/** A server's place in Most Popular: overall, and among the servers of its game (its first Game filter). */
export interface Rank {
  position: number;
  of: number;
  game: { filterId: number; position: number; of: number } | null;
}
