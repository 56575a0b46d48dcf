import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema';
import type { Storage } from '../../adapters/storage';
import { LIMITS } from '../../../shared/limits';
import { MSG } from '../../../shared/messages';
import type { ListServersQuery, Review, ServerDetail, ViewerState } from '../../../shared/schemas/server';
import { REVIEWS_FIRST_PAGE } from '../../../shared/schemas/server';
import { notFound } from '../../errors';
import { serverPolicy } from '../../policies/servers.policy';
import { currentOrNextWeekend } from '../../lib/weekend';
import { TtlCache } from '../../lib/ttl-cache';
import type { SettingsService } from '../settings';
import type { FilterCatalog } from '../filters';
import type { ServersRepository } from './servers.repository';
import type { DiscoveryRepository } from './discovery.repository';
import type { AudienceRepository } from './audience.repository';
import { toApiServer } from './servers.mapper';
import { audienceCounter, DEFAULT_COUNTING, type CountingSettings, type Visitor } from './audience-counter';

interface Deps {
  servers: ServersRepository;
  discovery: DiscoveryRepository;
  audience: AudienceRepository;
  storage: Storage;
  filters: FilterCatalog;
  now: () => Date;
  /** Lists are the same for everyone: their serialised pages are kept this long (0: off). */
  listCacheTtlMs: number;
  settings: Pick<SettingsService, 'flag'>;
  /** Limits and timing of the view and search counts (tests make them small). */
  counting?: Partial<CountingSettings> | undefined;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/** Lists, search, server pages and their reviews: what anyone may browse, logged in or not. */
export function discoveryService({ servers, discovery, audience, storage, filters, now, listCacheTtlMs, settings, counting, log }: Deps) {
  const counter = audienceCounter({ audience, now, settings: { ...DEFAULT_COUNTING, ...counting }, ...(log ? { log } : {}) });
  const toApi = (row: Parameters<typeof toApiServer>[0]) => toApiServer(row, storage.url);
  const lists = new TtlCache<{ json: string; total: number }>(listCacheTtlMs);

  /** With reviews turned off (admin toggle) the votes still show, their texts do not. */
  const reviewsPage = async (serverId: number, limit: number, offset: number): Promise<Review[]> => {
    const showText = await settings.flag('enableReviews');
    const rows = await discovery.reviewsPage(serverId, limit, offset);
    return rows.map((r) => ({
      type: r.type,
      review: showText ? r.review : null,
      displayName: r.displayName || r.username,
      username: r.username,
      profilePicture: r.profilePicture,
      createdAt: r.createdAt.toISOString(),
    }));
  };

  const countReviews = (serverId: number) => discovery.countReviews(serverId);

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
    const [reviews, reviewsTotal] = await Promise.all([reviewsPage(row.id, REVIEWS_FIRST_PAGE, 0), countReviews(row.id)]);
    return { id: row.id, ownerId: row.ownerId, hidden: row.hidden, body: { ...toApi(row), reviews, reviewsTotal } };
  };
  const pages = new TtlCache<Awaited<ReturnType<typeof publicPage>>>(listCacheTtlMs);

  return {
    /** Drops cached lists and pages after a change that shows in them. */
    invalidate: () => {
      lists.clear();
      pages.clear();
    },

    /** Writes the queued view and search counts now (tests, shutdown). */
    flushCounts: () => counter.flush(),
    /** Stops the count timer and writes what is queued. */
    stopCounting: () => counter.stop(),

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
      const options = { q: query.q, filterIds: chosen.map((f) => f.id), sort: query.sort, limit: query.limit, offset: query.offset };
      const key = JSON.stringify({ ...options, filterIds: [...options.filterIds].sort((a, b) => a - b), q: options.q?.toLowerCase() });
      const page = await lists.get(key, async () => {
        const { rows, total } = await servers.list(options, now());
        const count = total ?? (query.offset > 0 ? await servers.count(options, now()) : 0);
        return { json: JSON.stringify(rows.map(toApi)), total: count };
      });
      if (chosen.length > 0 && query.offset === 0 && (!viewer || viewer.role === 'player')) {
        // Popular filters count what players look for; paging through results is not a new search.
        counter.search(
          chosen.map((f) => f.name),
          visitor,
        );
      }
      return page;
    },

    /** Listed servers created in the last 24 hours, newest first. */
    async justJoined() {
      return (await servers.justJoined(now(), LIMITS.listDefault)).map(toApi);
    },

    /** This weekend's featured server, or between weekends the coming one's; shown only while it is listed. */
    async serverOfTheWeekend() {
      const serverId = await discovery.findWeekendServerId(currentOrNextWeekend(now()));
      if (serverId === undefined) return null;
      const row = await servers.findFull(serverId, now());
      // The same answer for everyone, so it must be a server an anonymous visitor may see.
      return row && serverPolicy.canSee(undefined, row) ? toApi(row) : null;
    },

    /**
     * A server page: counts the view once per viewer per day (not the owner's own), then answers
     * the server, its newest reviews and what the caller already did. The counter shown includes
     * this view at once; others see it after the next write and the page cache's few seconds.
     */
    async detail(id: number, visitor: Visitor): Promise<ServerDetail> {
      const viewer = visitor.user;
      const page = await pages.get(String(id), () => publicPage(id));
      if (!page) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanSee(viewer, page);
      const counted = page.ownerId !== viewer?.id && counter.view(page.id, visitor);
      const viewerState = await this.viewerState(page.id, page.ownerId, viewer);
      return { ...page.body, views: page.body.views + (counted ? 1 : 0), viewer: viewerState };
    },

    /** What the caller already did on a server, in one query. */
    async viewerState(serverId: number, ownerId: number, viewer: UserRow | undefined): Promise<ViewerState | null> {
      if (!viewer) return null;
      const row = await discovery.findViewerState(serverId, viewer.id);
      return { joined: Boolean(row.joined), vote: row.vote ?? null, isOwner: ownerId === viewer.id };
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
