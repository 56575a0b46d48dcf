import type { ListServersQuery } from '../../../shared/schemas/server';
import type { ResponseCache } from '../../lib/response-cache';
import type { CardCache } from './card-cache';
import { asksLive } from './search-index.types';

/**
 * What changed, so only the cached answers that show it are dropped: a vote or join on one server
 * touches that server's page, the lists showing it and the orders its counters rank by; a game
 * poll round touches its servers and the lists that sort or filter by players; anything else (an
 * edit, a boost, moderation, settings) drops every cached list, feed and page.
 */
export type CacheChange =
  /** A vote, with the server's counters after it when known (its held card is updated, not dropped). */
  | { kind: 'vote'; serverId: number; counters?: VoteCounters }
  | { kind: 'join'; serverId: number }
  /**
   * A game poll round: `serverIds` got new player counts or online states (their cards, pages and
   * lists); every server in `checkedIds` was asked (its page shows when it was last checked).
   */
  | { kind: 'counts'; serverIds: number[]; checkedIds: number[] }
  | { kind: 'all' };

/** A server's like and dislike counters. */
export interface VoteCounters {
  likes: number;
  dislikes: number;
}

/** The list orders each counter change can move a server in (see SORT_ORDER of the repository). */
export const SORTS_MOVED_BY: Record<'vote' | 'join', readonly string[]> = {
  vote: ['sort:likes', 'sort:popular', 'sort:votes'],
  join: ['sort:joins', 'sort:popular'],
};

export const serverTags = (ids: Iterable<number>) => Array.from(ids, (id) => `server:${id}`);

/** The tag of lists whose order or members follow player counts (sorted by players, or filtered by them). */
export const PLAYERS_TAG = 'players';
export const followsPlayers = (query: ListServersQuery): boolean => query.sort === 'players' || asksLive(query);

/** One instance's caches of what discovery shows. */
export interface DiscoveryCaches {
  search: { markStale(): void };
  lists: Pick<ResponseCache<unknown>, 'clear' | 'dropTags'>;
  feeds: Pick<ResponseCache<unknown>, 'clear' | 'dropTags'>;
  pages: Pick<ResponseCache<unknown>, 'clear' | 'dropTags'>;
  cards: Pick<CardCache, 'clear' | 'drop' | 'setCounters'>;
}

/** Drops from one instance's caches what a change shows in; a vote with its counters updates the held card. */
export function dropCached(change: CacheChange, { search, lists, feeds, pages, cards }: DiscoveryCaches): void {
  search.markStale();
  if (change.kind === 'all') {
    lists.clear();
    feeds.clear();
    pages.clear();
    cards.clear();
    return;
  }
  if (change.kind === 'counts') {
    cards.drop(change.serverIds);
    const servers = serverTags(change.serverIds);
    lists.dropTags([...servers, PLAYERS_TAG]);
    feeds.dropTags(servers);
    pages.dropTags(serverTags(new Set([...change.serverIds, ...change.checkedIds])));
    return;
  }
  if (!(change.kind === 'vote' && change.counters && cards.setCounters(change.serverId, change.counters))) cards.drop([change.serverId]);
  const server = serverTags([change.serverId]);
  lists.dropTags([...server, ...SORTS_MOVED_BY[change.kind]]);
  feeds.dropTags(server);
  pages.dropTags(server);
}
