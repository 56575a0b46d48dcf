import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema';
import type { Storage } from '../../adapters/storage';
import { LIMITS } from '../../../shared/limits';
import { connectInfo } from '../../../shared/connect';
import { MSG } from '../../../shared/messages';
import type { ListServersQuery, Review, Server, ServerDetail, ViewerState } from '../../../shared/schemas/server';
import {
  REVIEWS_FIRST_PAGE,
  type Rank,
  serverDetailSchema,
  serverListSchema,
  serverOfTheWeekendSchema,
} from '../../../shared/schemas/server';
import { notFound } from '../../errors';
import { serverPolicy } from '../../policies/servers.policy';
import { currentOrNextWeekend } from '../../lib/weekend';
import { batcher } from '../../lib/batcher';
import { isRowLevelError } from '../../lib/row-errors';
import { cachedBody, jsonThrough, ResponseCache, type CachedBody } from '../../lib/response-cache';
import type { SettingsService } from '../settings';
import type { FilterCatalog } from '../filters';
import type { ListOptions, ServersRepository } from './servers.repository';
import type { DiscoveryRepository } from './discovery.repository';
import type { AudienceRepository } from './audience.repository';
import { toApiServer, type ServerFields } from './servers.mapper';
import { audienceCounter, DEFAULT_COUNTING, type CountingSettings, type Visitor } from './audience-counter';
import { searchIndexSync } from './search-index.sync';
import type { SearchIndex } from './search-index';
import type { SearchIndexRepository } from './search-index.repository';
import { CardCache } from './card-cache';
import { listBody, listDigest } from './list-body';
import { listKey, listOptions } from './list-query';
import { cardRefresher } from './card-refresher';
import { followsPlayers, PLAYERS_TAG, serverTags, SORTS_MOVED_BY, type CacheChange } from './cache-change';

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

/** How stale the shared rank table may get while servers change. */
const RANK_MAX_AGE_MS = 1000;

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
  const feeds = new ResponseCache<{ body: CachedBody; ids: number[] }>(listCacheTtlMs);
  const cards = new CardCache(cardTtlMs);
  const gameFilters = filters.resolve(filters.categories().find((c) => c.category === 'Game')?.filters ?? []).map((f) => f.id);
  // Asks the database every list cache time for changes nobody announced (another instance
  // without Redis, a row written behind the app's back).
  const search = searchIndexSync({
    repository: searchIndex,
    gameFilters,
    freshForMs: listCacheTtlMs,
    onRowsChanged: (rows, deleted) => cards.dropChanged(rows, deleted),
    ...(log ? { log } : {}),
  });
  const loadCards = async (ids: number[]) => {
    const rows = await servers.cardsByIds(ids, now());
    return new Map(
      rows.map((row) => {
        // In code-unit order, as the server page's query sorts them (COLLATE "C").
        const filterNames = row.filterIds.flatMap((id) => filters.nameOf(id) ?? []).sort();
        const card = {
          ...row,
          filterNames,
          gallery: row.galleryKeys.map((storageKey) => ({ storageKey })),
          recentJoins: Number(row.recentJoins),
          recentBoosts: Number(row.recentBoosts),
        };
        // `toApiServer` builds exactly the schema's fields (typed as `Server`), so no schema runs per
        // card: refilling 100,000 cards spent a fifth of their time in it (a test parses the output).
        return [row.id, JSON.stringify(toApi(card))] as const;
      }),
    );
  };

  // Read after the write each answers, so each sees its own vote; a batch is one `cardsByIds` query.
  const freshCards = batcher((ids: number[]) => loadCards(ids).then((found) => ids.map((id) => found.get(id))), {
    maxBatch: 100,
    maxInFlight: 2,
    splitOn: isRowLevelError,
  });
  const refresher = cardRefresher({ cards, search, load: loadCards, cardTtlMs, log });

  /** A listed server's rank as the API shows it (null before the index is loaded or while hidden). */
  const rankOf = (index: SearchIndex | undefined, id: number): Rank | null => {
    // Ranks are walked again at most once a second while servers change; never staler than a cached list (0 in tests).
    const rank = index?.rankOf(id, Math.min(RANK_MAX_AGE_MS, listCacheTtlMs));
    if (!rank) return null;
    const game = rank.game && filters.nameOf(rank.game.filterId);
    return {
      position: rank.position,
      of: rank.of,
      game: rank.game && game ? { name: game, position: rank.game.position, of: rank.game.of } : null,
    };
  };
  /** The search index once loaded (ranks come from it), without waiting for the first load. */
  const loadedIndex = () => (search.loaded ? search.fresh() : Promise.resolve(undefined));
  /** A card's JSON with its rank added: ranks move with every vote, so they are not part of the cached card. */
  const withRank = (json: string, rank: string) => `${json.slice(0, -1)},"rank":${rank}}`;
  /** Ranks as JSON, kept for as long as the index answers from the same walk of the order. */
  const rankJsons = new Map<number, string>();
  let rankJsonsWalk = 0;
  /** The rank JSON of each id, in order. */
  const rankJsonsOf = (index: SearchIndex, ids: readonly number[]): string[] => {
    const walk = index.rankWalk(Math.min(RANK_MAX_AGE_MS, listCacheTtlMs));
    if (walk !== rankJsonsWalk) {
      rankJsons.clear();
      rankJsonsWalk = walk;
    }
    return ids.map((id) => {
      let json = rankJsons.get(id);
      if (json === undefined) rankJsons.set(id, (json = JSON.stringify(rankOf(index, id))));
      return json;
    });
  };

  /** One page from the search index: ids and exact total from memory, the cards from the card cache or one query. */
  const indexedPage = async (options: ListOptions) => {
    const index = await search.fresh();
    const found = index.query(options);
    const shown = await cards.cards(found.ids, loadCards);
    const ids = shown.map((card) => card.id);
    const ranks = rankJsonsOf(index, ids);
    return {
      body: cachedBody(listBody(shown, ranks), { quick: true, digest: listDigest(shown, ranks) }),
      total: found.total,
      capped: false,
      ids,
    };
  };

  /** One page by SQL, while the search index loads at start-up (a capped total: docs/decisions/022-search-at-scale.md). */
  const sqlPage = async (options: ListOptions, offset: number) => {
    const listed = await servers.list(options, now());
    const { total, capped } = listed.count ?? (offset > 0 ? await servers.count(options) : { total: 0, capped: false });
    const body = cachedBody(jsonThrough(serverListSchema, listed.rows.map(toApi)));
    return { body, total, capped, ids: listed.rows.map((r) => r.id) };
  };

  /** With reviews turned off (admin toggle) no review shows; the votes still count. */
  const reviewsPage = async (serverId: number, limit: number, offset: number): Promise<Review[]> => {
    if (!(await settings.flag('enableReviews'))) return [];
    const rows = await discovery.reviewsPage(serverId, limit, offset);
    return rows.map((r) => ({
      type: r.type,
      review: r.review,
      displayName: r.displayName || r.username,
      username: r.username,
      profilePicture: r.profilePicture,
      createdAt: r.createdAt.toISOString(),
      editedAt: r.editedAt ? r.editedAt.toISOString() : null,
      joined: Boolean(r.joined),
    }));
  };

  const countReviews = async (serverId: number) => ((await settings.flag('enableReviews')) ? discovery.countReviews(serverId) : 0);

  /** A server the viewer may see, or 404 (hidden ones are only seen by their owner and admins). */
  const visible = async (id: number, viewer: UserRow | undefined) => {
    const row = await servers.findFull(id, now());
    if (!row) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanSee(viewer, row);
    return row;
  };

  /** The part of a server page that is the same for everyone: cached like the lists. */
  const publicPage = async (id: number) => {
    const row = await servers.findFull(id, now());
    if (!row) return undefined;
    const [reviews, reviewsTotal, index] = await Promise.all([
      reviewsPage(row.id, REVIEWS_FIRST_PAGE, 0),
      countReviews(row.id),
      loadedIndex(),
    ]);
    return {
      id: row.id,
      ownerId: row.ownerId,
      hidden: row.hidden,
      body: {
        ...toApi(row),
        rank: rankOf(index, row.id),
        connect: connectInfo(row),
        live: row.lastPolledAt
          ? {
              checkedAt: row.lastPolledAt.toISOString(),
              map: row.gameMap,
              version: row.gameVersion,
              players: row.showPlayerNames && row.online ? row.playerNames : null,
            }
          : null,
        reviews,
        reviewsTotal,
      },
      // An anonymous caller's whole answer, by the view count it shows: made once, sent as bytes.
      anonymous: new Map<number, CachedBody>(),
    };
  };
  type PublicPage = NonNullable<Awaited<ReturnType<typeof publicPage>>>;
  const pages = new ResponseCache<Awaited<ReturnType<typeof publicPage>>>(listCacheTtlMs);
  const page = (id: number) =>
    pages.get(
      String(id),
      () => publicPage(id),
      () => [`server:${id}`],
    );

  /** An anonymous caller's page: counts the view, answers the bytes for the view count shown. */
  const anonymousBody = (found: PublicPage, visitor: Visitor): CachedBody => {
    const views = found.body.views + (counter.view(found.id, visitor) ? 1 : 0);
    let body = found.anonymous.get(views);
    if (!body) {
      body = cachedBody(jsonThrough(serverDetailSchema, { ...found.body, views, viewer: null }));
      found.anonymous.set(views, body);
    }
    return body;
  };

  const listeners = new Set<(change: CacheChange) => void>();
  const dropCached = (change: CacheChange): void => {
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
  };
  const applyChange = (change: CacheChange): void => {
    dropCached(change);
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
      search.warmUp();
      refresher.start();
    },

    /** How many servers' cards are held in memory (tests). */
    cardsHeld: () => cards.size,

    /** The search index with every change so far read in (tests). */
    searchIndex: () => search.fresh(),

    /** Writes the queued view and search counts now (tests, shutdown). */
    flushCounts: () => counter.flush(),
    /** Stops the count timer and writes what is queued. */
    stopCounting: () => {
      refresher.stop();
      return counter.stop();
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
          if (search.loaded) return indexedPage(options);
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

    /** The held just-joined and weekend feeds (undefined when not held or dropped since). */
    peekJustJoined: (): CachedBody | undefined => feeds.peek('just-joined')?.body,
    peekWeekend: (): CachedBody | undefined => feeds.peek('weekend')?.body,

    /** Listed servers created in the last 24 hours, newest first, as bytes. */
    async justJoined(): Promise<CachedBody> {
      const feed = await feeds.get(
        'just-joined',
        async () => {
          const [rows, index] = await Promise.all([servers.justJoined(now(), LIMITS.listDefault), loadedIndex()]);
          const shown = rows.map((r) => ({ ...toApi(r), rank: rankOf(index, r.id) }));
          return { body: cachedBody(jsonThrough(serverListSchema, shown)), ids: rows.map((r) => r.id) };
        },
        (cached) => ['feed', ...serverTags(cached.ids)],
      );
      return feed.body;
    },

    /** This weekend's featured server, or between weekends the coming one's (as bytes); shown only while it is listed. */
    async serverOfTheWeekend(): Promise<CachedBody> {
      const feed = await feeds.get(
        'weekend',
        async () => {
          const serverId = await discovery.findWeekendServerId(currentOrNextWeekend(now()));
          const row = serverId === undefined ? undefined : await servers.findFull(serverId, now());
          // The same answer for everyone, so it must be a server an anonymous visitor may see.
          const server = row && serverPolicy.canSee(undefined, row) ? { ...toApi(row), rank: rankOf(await loadedIndex(), row.id) } : null;
          return { body: cachedBody(jsonThrough(serverOfTheWeekendSchema, server)), ids: server && row ? [row.id] : [] };
        },
        (cached) => ['feed', ...serverTags(cached.ids)],
      );
      return feed.body;
    },

    /**
     * A server page: counts the view once per viewer per day (not the owner's own), then answers
     * the server, its newest reviews and what the caller already did. The counter shown includes
     * this view at once; others see it after the next write and the page cache's few seconds.
     */
    async detail(id: number, visitor: Visitor): Promise<ServerDetail> {
      const viewer = visitor.user;
      const found = await page(id);
      if (!found) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanSee(viewer, found);
      const counted = found.ownerId !== viewer?.id && counter.view(found.id, visitor);
      const viewerState = await this.viewerState(found.id, found.ownerId, viewer);
      return { ...found.body, views: found.body.views + (counted ? 1 : 0), viewer: viewerState };
    },

    /** `detail` for an anonymous caller (no per-user part), as bytes made once per view count shown. */
    async anonymousDetail(id: number, visitor: Visitor): Promise<CachedBody> {
      const found = await page(id);
      if (!found) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanSee(undefined, found);
      return anonymousBody(found, visitor);
    },

    /** `anonymousDetail` from the held page only (undefined when not held, or not to be shown). */
    peekAnonymousDetail(id: number, visitor: Visitor): CachedBody | undefined {
      const found = pages.peek(String(id));
      return found && serverPolicy.canSee(undefined, found) ? anonymousBody(found, visitor) : undefined;
    },

    /**
     * A server's card as lists show it (with its rank), current, as JSON: what a join or vote
     * answers. Held when a vote set its counters; otherwise read, one query for the joins and
     * votes that end together (see `batcher`). The rank is
     * the index's as it stands (ranks are walked again at most once a second anyway): reading the
     * index's changes first would cost every vote another query.
     */
    async freshCard(id: number): Promise<string> {
      // A vote updated its held card in place; anything else dropped it and it is read afresh.
      const json = cards.peek(id) ?? (await freshCards.add(id));
      if (json === undefined) throw notFound(MSG.serverNotFound);
      return withRank(json, JSON.stringify(rankOf(search.current(), id)));
    },

    /** A server anyone may see, as its page shows it (with its rank), from the page cache; 404 otherwise. */
    async publicServer(id: number): Promise<Server> {
      const found = await page(id);
      if (!found || !serverPolicy.canSee(undefined, found)) throw notFound(MSG.serverNotFound);
      const { reviews: _reviews, reviewsTotal: _total, connect: _connect, live: _live, ...server } = found.body;
      return server;
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
