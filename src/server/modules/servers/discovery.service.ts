import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema';
import type { Storage } from '../../adapters/storage';
import { MSG } from '../../../shared/messages';
import type { ListServersQuery, Server, ViewerState } from '../../../shared/schemas/server';
import { serverListSchema } from '../../../shared/schemas/server';
import { notFound } from '../../errors';
import { serverPolicy } from '../../policies/servers.policy';
import { cachedBody, jsonThrough, type CachedBody } from '../../lib/cached-body';
import { ResponseCache } from '../../lib/response-cache';
import type { SettingsService } from '../settings';
import type { FilterCatalog } from '../filters';
import type { ListOptions, ServersRepository } from './servers.repository';
import type { DiscoveryRepository } from './discovery.repository';
import type { AudienceRepository } from './audience.repository';
import { toApiServer, type ServerFields } from './servers.mapper';
import { audienceCounter, DEFAULT_COUNTING, type CountingSettings, type Visitor } from './audience-counter';
import type { SearchIndexRepository } from './search-index.repository';
import { listKey, listOptions } from './list-query';
import { indexedLists } from './indexed-lists';
import { serverPages } from './server-pages';
import { homeFeeds } from './home-feeds';
import { cacheDropper, COUNTER_DROPS_EVERY_MS, followsPlayers, PLAYERS_TAG, serverTags, type CacheChange } from './cache-change';

export type { CacheChange, VoteCounters } from './cache-change';

interface Deps {
  servers: ServersRepository;
  discovery: DiscoveryRepository;
  audience: AudienceRepository;
  storage: Storage;
  filters: FilterCatalog;
  now: () => Date;
  /** Lists are the same for everyone: their serialised pages are kept this long (0: off). */
  listCacheTtlMs: number;
  /** What the in-memory search index, which finds each page's servers, reads (docs/decisions/028-search-index.md). */
  searchIndex: SearchIndexRepository;
  /** How long a server's card may be reused in lists (0: off); a change to the server drops it at once. */
  cardTtlMs: number;
  settings: Pick<SettingsService, 'flag'>;
  /** Limits and timing of the view and search counts (tests make them small). */
  counting?: Partial<CountingSettings> | undefined;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  /** Told each change this instance invalidates, so other instances drop the same (Redis). */
  publish?: (change: CacheChange) => void;
}

/** Lists, search, server pages and their reviews: what anyone may browse, logged in or not. */
export function discoveryService({
  servers,
  discovery,
  audience,
  storage,
  filters,
  now,
  listCacheTtlMs,
  searchIndex,
  cardTtlMs,
  settings,
  counting,
  log,
  publish,
}: Deps) {
  const counter = audienceCounter({ audience, now, settings: { ...DEFAULT_COUNTING, ...counting }, ...(log ? { log } : {}) });
  const toApi = (row: ServerFields) => toApiServer(row, storage.url);
  // Tagged by sort and by the servers each answer shows (docs/decisions/023-hot-reads.md).
  const lists = new ResponseCache<{ body: CachedBody; total: number; capped: boolean; ids: number[] }>(listCacheTtlMs, 1000, {
    keepFromSecondAsk: true,
  });
  const indexed = indexedLists({ servers, filters, toApi, now, listCacheTtlMs, searchIndex, cardTtlMs, log });
  const { search, cards } = indexed;
  const shownFeeds = homeFeeds({ servers, discovery, toApi, lists: indexed, now, listCacheTtlMs });
  const feeds = shownFeeds.cache;

  /** One page by SQL, while the search index loads at start-up (a capped total: docs/decisions/022-search-at-scale.md). */
  const sqlPage = async (options: ListOptions, offset: number) => {
    const listed = await servers.list(options, now());
    const { total, capped } = listed.count ?? (offset > 0 ? await servers.count(options) : { total: 0, capped: false });
    const body = cachedBody(jsonThrough(serverListSchema, listed.rows.map(toApi)));
    return { body, total, capped, ids: listed.rows.map((r) => r.id) };
  };

  const shownPages = serverPages({ servers, discovery, settings, toApi, lists: indexed, counter, now, listCacheTtlMs });
  const { cache: pages, page, anonymousBody, viewerText, visible, reviewsPage, countReviews } = shownPages;

  const listeners = new Set<(change: CacheChange) => void>();
  // With caches off (0) every change shows at once; else counter changes are dropped together.
  const dropper = cacheDropper({ search, lists, feeds, pages, cards }, Math.min(COUNTER_DROPS_EVERY_MS, listCacheTtlMs));
  const applyChange = (change: CacheChange): void => {
    dropper.apply(change);
    // After this instance's own caches, each on its own: one that fails leaves the rest told.
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (err) {
        log?.warn({ err }, 'a listener to cache changes failed');
      }
    }
  };

  return {
    /** Drops the cached lists, feeds and pages a change shows in, here and on the other instances. */
    invalidate(change: CacheChange = { kind: 'all' }): void {
      applyChange(change);
      // Other instances drop the card: counters from several instances' votes, or a hold's drop,
      // could reach them in any order, and only this instance knows its own votes' order.
      publish?.(change.kind === 'vote' ? { kind: 'vote', serverId: change.serverId } : change);
    },

    /** Drops what a change shows in on this instance only (a change another instance published). */
    applyChange,

    /** Calls `listener` with every change applied on this instance, its own and those published by others. */
    onChange(listener: (change: CacheChange) => void): void {
      listeners.add(listener);
    },

    /**
     * Starts loading the search index (start-up; lists are answered by SQL until it is in), then
     * every listed server's card, and keeps them fresh.
     */
    warmUp(): void {
      indexed.start();
    },

    /**
     * Whether lists are answered from the search index, not yet by SQL (which has no index for most
     * sorts and searches, decision 063): an instance is not ready before. Starts a failed load again.
     */
    listsLoaded: (): boolean => search.loadedElseLoad(),
    /** Resolves once the search index's first load is done (true), or after `timeoutMs` or a failed load (false). */
    whenListsLoaded: (timeoutMs: number): Promise<boolean> => search.whenLoaded(timeoutMs),

    /**
     * Resolves once the search index is loaded and every listed server's card is held (true), or
     * with what was not ready when `timeoutMs` ran out or a load failed: the instance listens then.
     */
    whenWarm: async (timeoutMs: number): Promise<true | 'index' | 'cards'> => {
      const deadline = Date.now() + timeoutMs;
      if (!(await search.whenLoaded(timeoutMs))) return 'index';
      return (await indexed.whenCardsHeld(Math.max(0, deadline - Date.now()))) || 'cards';
    },

    /** How many servers' cards are held in memory (tests). */
    cardsHeld: () => cards.size,

    /** Hits and misses of the list, feed and page caches since start (metrics read them at scrape time). */
    cacheLookups: (): Record<'lists' | 'feeds' | 'pages', { hits: number; misses: number }> => ({
      lists: { hits: lists.hits, misses: lists.misses },
      feeds: { hits: feeds.hits, misses: feeds.misses },
      pages: { hits: pages.hits, misses: pages.misses },
    }),

    /** The search index with every change so far read in (tests). */
    searchIndex: () => search.fresh(),

    /** Writes the queued view and search counts now (tests, shutdown). */
    flushCounts: () => counter.flush(),
    /** At shutdown, before the database closes: lets the reads under way end, stops the count timer and writes what is queued. */
    stopCounting: async () => {
      dropper.flush();
      await indexed.stop();
      await counter.stop();
    },

    /**
     * `GET /api/servers`: one page, serialised, and the total, from memory when the same page was
     * asked for within the cache time. A search with filters counts for popular filters once per
     * viewer, filter and day.
     */
    async list(query: ListServersQuery, visitor: Visitor) {
      const viewer = visitor.user;
      const names = (query.filters ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
      const chosen = filters.resolve(names);
      const options = listOptions(
        query,
        chosen.map((f) => f.id),
      );
      const page = await lists.get(
        listKey(options),
        async () => {
          if (search.loaded) return indexed.page(options);
          search.warmUp();
          return sqlPage(options, query.offset);
        },
        (cached) => ['list', `sort:${query.sort}`, ...(followsPlayers(query) ? [PLAYERS_TAG] : []), ...serverTags(cached.ids)],
      );
      if (chosen.length > 0 && query.offset === 0 && (!viewer || viewer.role === 'player')) {
        // Popular filters count what players look for; paging through results is not a new search.
        counter.search(
          chosen.map((f) => f.name),
          visitor,
        );
      }
      return page;
    },

    /**
     * For a list anyone may be answered without a trip through the service (no filters, so
     * nothing to count): what reads the page held for `query`, while it is held and current.
     */
    listPeeker(query: ListServersQuery): (() => { body: CachedBody; total: number; capped: boolean } | undefined) | undefined {
      if (query.filters?.trim()) return undefined;
      const key = listKey(listOptions(query, []));
      return () => lists.peek(key);
    },

    peekJustJoined: shownFeeds.peekJustJoined,
    peekWeekend: shownFeeds.peekWeekend,
    justJoined: shownFeeds.justJoined,
    serverOfTheWeekend: shownFeeds.serverOfTheWeekend,

    /**
     * A server page: counts the view once per viewer per day (not the owner's own), then answers
     * the server, its newest reviews and what the caller already did. The counter shown includes
     * this view at once; others see it after the next write and the page cache's few seconds.
     * Sent as JSON text: the caller's state joined to the bytes made for everyone, so the whole
     * page is not run through its schema per request.
     */
    async detail(id: number, visitor: Visitor): Promise<string> {
      const viewer = visitor.user;
      const found = await page(id);
      if (!found) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanSee(viewer, found);
      const counted = found.ownerId !== viewer?.id && counter.view(found.id, visitor);
      const viewerState = await this.viewerState(found.id, found.ownerId, viewer);
      const views = found.body.views + (counted ? 1 : 0);
      return viewerText(found, views, viewerState);
    },

    /** `detail` for an anonymous caller (no per-user part), as bytes made once per view count shown. */
    async anonymousDetail(id: number, visitor: Visitor): Promise<CachedBody> {
      const found = await page(id);
      if (!found) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanSee(undefined, found);
      return anonymousBody(found, visitor);
    },

    /** Whether the page cache holds the server's page (one loaded for a single ask is not held). */
    pageHeld: (id: number): boolean => pages.holds(String(id)),

    /** `anonymousDetail` from the held page only (undefined when not held, or not to be shown). */
    peekAnonymousDetail(id: number, visitor: Visitor): CachedBody | undefined {
      const found = pages.peek(String(id));
      return found && serverPolicy.canSee(undefined, found) ? anonymousBody(found, visitor) : undefined;
    },

    /**
     * A server's card as lists show it (with its rank), current, as JSON: what a join or vote
     * answers; 404 when the server is not listed. The rank is the index's as it stands (ranks are
     * walked again at most once a second anyway): reading the index's changes first would cost
     * every vote another query.
     */
    async freshCard(id: number): Promise<string> {
      const json = await indexed.freshCard(id);
      if (json === undefined) throw notFound(MSG.serverNotFound);
      return json;
    },

    /** A server anyone may see, as its page shows it (with its rank), from the page cache; 404 otherwise. */
    async publicServer(id: number): Promise<Server> {
      const found = await page(id);
      if (!found || !serverPolicy.canSee(undefined, found)) throw notFound(MSG.serverNotFound);
      const { reviews: _reviews, reviewsTotal: _total, connect: _connect, live: _live, ...server } = found.body;
      return server;
    },

    /**
     * A server anyone may see, as its page shows it, from the page cache; undefined otherwise. What
     * a server page's link preview shows: its HTML then renders from the same read.
     */
    async listedServer(id: number): Promise<Server | undefined> {
      const found = await page(id);
      return found && serverPolicy.canSee(undefined, found) ? found.body : undefined;
    },

    /** What the caller already did on a server, in one query. */
    async viewerState(serverId: number, ownerId: number, viewer: UserRow | undefined): Promise<ViewerState | null> {
      if (!viewer) return null;
      const row = await discovery.findViewerState(serverId, viewer.id);
      return { joined: Boolean(row.joined), vote: row.vote ?? null, review: row.review ?? null, isOwner: ownerId === viewer.id };
    },

    /** A page of a visible server's reviews and their total. */
    async reviews(id: number, viewer: UserRow | undefined, limit: number, offset: number) {
      const row = await visible(id, viewer);
      const [reviews, total] = await Promise.all([reviewsPage(row.id, limit, offset), countReviews(row.id)]);
      return { reviews, total };
    },
  };
}

/** Lists, search and server pages, as routes and the composition root receive them. */
export type DiscoveryService = ReturnType<typeof discoveryService>;
