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
  /**
   * A new month: every server's count of the month's daily votes went back to 0. Any list, feed or
   * page may show one; the cards follow the search index's read of the rows the reset wrote.
   */
  | { kind: 'month' }
  | { kind: 'all' };

const ids = (value: unknown): value is number[] => Array.isArray(value) && value.every((id) => Number.isSafeInteger(id));

/**
 * A change another instance published, as this version reads it. One it cannot read (a kind a
 * newer version added, met during a rolling deploy) drops everything rather than nothing.
 */
export function heardChange(change: unknown): CacheChange {
  const heard = (change ?? {}) as Record<string, unknown>;
  switch (heard['kind']) {
    case 'vote':
    case 'join':
      if (Number.isSafeInteger(heard['serverId'])) return { kind: heard['kind'], serverId: heard['serverId'] as number };
      break;
    case 'counts':
      if (ids(heard['serverIds']) && ids(heard['checkedIds']))
        return { kind: 'counts', serverIds: heard['serverIds'], checkedIds: heard['checkedIds'] };
      break;
    case 'month':
      return { kind: 'month' };
  }
  return { kind: 'all' };
}

/** A server's counters as a vote's statement answered them: likes and dislikes, or the month's daily votes. */
export type VoteCounters = { likes: number; dislikes: number } | { monthVotes: number };

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
  lists: Pick<ResponseCache<unknown>, 'clear' | 'dropTags' | 'refreshTags'>;
  feeds: Pick<ResponseCache<unknown>, 'clear' | 'dropTags' | 'refreshTags'>;
  pages: Pick<ResponseCache<unknown>, 'clear' | 'dropTags'>;
  cards: Pick<CardCache, 'clear' | 'drop' | 'setCounters'>;
}

/**
 * While votes and joins stream, what they change in lists and feeds (and the search index's
 * read of the rows they wrote) is gathered and applied together, at most this often: each vote used
 * to drop the Top 10 and every list sorted by likes or popularity, so under a campaign the busiest
 * lists were made again for nearly every request instead of being answered from memory. The first
 * change after a quiet spell is shown at once; later ones within this time wait for its end
 * (docs/decisions/057-reads-during-votes.md).
 */
export const COUNTER_DROPS_EVERY_MS = 250;

/**
 * How long after a vote or join every list and feed shows it, at most: their gathering, then a
 * load (a few ms in memory; up to 150 are allowed for a busy moment).
 */
export const COUNTERS_LISTED_WITHIN_MS = COUNTER_DROPS_EVERY_MS + 150;

/**
 * Applies changes to one instance's caches. A vote's or a join's card is updated (or dropped) and
 * its server's page dropped at once (the voter sees their vote there); the lists and feeds showing
 * the server (and the orders it moves in) are dropped at
 * once when no counter change was applied in the last `everyMs`, else gathered until then and
 * loaded again in the background, the answers held meanwhile still given (`refreshTags`): a busy
 * list is never missing while votes stream, and at most `everyMs` plus one load behind. `everyMs`
 * 0 (caches off): every change at once. Any other change drops what it shows at once, the
 * gathered counter changes with it.
 */
export function cacheDropper(caches: DiscoveryCaches, everyMs: number) {
  const { search, lists, feeds, pages, cards } = caches;
  const pending = { lists: new Set<string>(), feeds: new Set<string>() };
  let lastAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;

  /** Applies the gathered counter changes: dropped, or loaded again while still answered (`refresh`). */
  const apply = (how: 'drop' | 'refresh'): void => {
    clearTimeout(timer);
    timer = undefined;
    search.markStale();
    for (const [name, tags] of Object.entries(pending) as Array<[keyof typeof pending, Set<string>]>) {
      if (tags.size === 0) continue;
      if (how === 'drop') caches[name].dropTags(tags);
      else caches[name].refreshTags(tags);
      tags.clear();
    }
  };

  const counterChange = (kind: 'vote' | 'join', serverId: number, counters: VoteCounters | undefined): void => {
    if (!(kind === 'vote' && counters && cards.setCounters(serverId, counters))) cards.drop([serverId]);
    const [server] = serverTags([serverId]);
    for (const tag of [server!, ...SORTS_MOVED_BY[kind]]) pending.lists.add(tag);
    pending.feeds.add(server!);
    pages.dropTags([server!]);
    const wait = lastAt + everyMs - Date.now();
    if (wait > 0) {
      timer ??= setTimeout(() => {
        lastAt = Date.now();
        apply('refresh');
      }, wait).unref();
      return;
    }
    lastAt = Date.now();
    apply('drop');
  };

  return {
    apply(change: CacheChange): void {
      if (change.kind === 'vote' || change.kind === 'join')
        return counterChange(change.kind, change.serverId, change.kind === 'vote' ? change.counters : undefined);
      // Whatever the counter changes were waiting for goes now, with this change (itself no
      // counter change: it holds back no vote after it).
      apply('drop');
      if (change.kind === 'all' || change.kind === 'month') {
        lists.clear();
        feeds.clear();
        pages.clear();
        // A month's reset writes rows the index reads again (it was marked stale above): it drops
        // the cards that now differ from their row, and only those. At the month's first minute,
        // as a vote campaign starts, every card read again would cost more than the reset itself.
        if (change.kind === 'all') cards.clear();
        return;
      }
      cards.drop(change.serverIds);
      const servers = serverTags(change.serverIds);
      lists.dropTags([...servers, PLAYERS_TAG]);
      feeds.dropTags(servers);
      pages.dropTags(serverTags(new Set([...change.serverIds, ...change.checkedIds])));
    },
    /** Drops the gathered counter changes now (shutting down: no timer is left behind). */
    flush: () => apply('drop'),
  };
}
