import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, UserRow } from '../../db/schema';
import type { Storage } from '../../adapters/storage';
import { LIMITS } from '../../../shared/limits';
import { MSG } from '../../../shared/messages';
import type { ListServersQuery, Review, ServerDetail, ViewerState } from '../../../shared/schemas/server';
import { REVIEWS_FIRST_PAGE } from '../../../shared/schemas/server';
import { notFound } from '../../errors';
import { parseId } from '../../lib/ids';
import { currentOrNextWeekend } from '../../lib/weekend';
import { TtlCache } from '../../lib/ttl-cache';
import type { SettingsService } from '../settings/settings.service';
import type { FilterCatalog } from '../filters/filters.catalog';
import { serversRepository, toApiServer } from './servers.repository';
import { audienceCounter, DEFAULT_COUNTING, type CountingSettings, type Visitor } from './audience-counter';

interface Deps {
  db: Kysely<Database>;
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

/** Lists, search, server pages and their reviews (issue 3 "Discovery"). */
export function discoveryService({ db, storage, filters, now, listCacheTtlMs, settings, counting, log }: Deps) {
  const servers = serversRepository(db);
  const audience = audienceCounter({ db, now, settings: { ...DEFAULT_COUNTING, ...counting }, ...(log ? { log } : {}) });
  const toApi = (row: Parameters<typeof toApiServer>[0]) => toApiServer(row, storage.url);
  const lists = new TtlCache<{ json: string; total: number }>(listCacheTtlMs);

  /** With reviews turned off (admin toggle) the votes still show, their texts do not. */
  const reviewsPage = async (serverId: number, limit: number, offset: number): Promise<Review[]> => {
    const showText = await settings.flag('enableReviews');
    const rows = await db
      .selectFrom('votes')
      .innerJoin('users', 'users.id', 'votes.userId')
      .select(['votes.type', 'votes.review', 'votes.createdAt', 'users.username', 'users.displayName', 'users.profilePicture'])
      .where('votes.serverId', '=', serverId)
      .where('votes.hidden', '=', false)
      .orderBy('votes.createdAt', 'desc')
      .orderBy('votes.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      type: r.type,
      review: showText ? r.review : null,
      displayName: r.displayName || r.username,
      username: r.username,
      profilePicture: r.profilePicture,
      createdAt: r.createdAt.toISOString(),
    }));
  };

  const countReviews = async (serverId: number) =>
    (
      await db
        .selectFrom('votes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('serverId', '=', serverId)
        .where('hidden', '=', false)
        .executeTakeFirstOrThrow()
    ).n;

  /** A listed server, or 404 (hidden ones are only seen by their owner and admins). */
  const visible = async (rawId: string, viewer: UserRow | undefined) => {
    const id = parseId(rawId);
    const row = id ? await servers.findFull(id, now()) : undefined;
    if (!row || (row.hidden && row.ownerId !== viewer?.id && viewer?.role !== 'admin')) throw notFound(MSG.serverNotFound);
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
    flushCounts: () => audience.flush(),
    /** Stops the count timer and writes what is queued. */
    stopCounting: () => audience.stop(),

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
        audience.search(
          chosen.map((f) => f.name),
          visitor,
        );
      }
      return page;
    },

    async justJoined() {
      return (await servers.justJoined(now(), LIMITS.listDefault)).map(toApi);
    },

    /** This weekend's featured server, or between weekends the coming one's (decisions §5). */
    async serverOfTheWeekend() {
      const booking = await db
        .selectFrom('weekendBookings')
        .select('serverId')
        .where('weekendStart', '=', currentOrNextWeekend(now()))
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (!booking) return null;
      const row = await servers.findFull(booking.serverId, now());
      return row && !row.hidden ? toApi(row) : null;
    },

    /**
     * A server page: counts the view once per viewer per day (not the owner's own), then answers
     * the server, its newest reviews and what the caller already did. The counter shown includes
     * this view at once; others see it after the next write and the page cache's few seconds.
     */
    async detail(rawId: string, visitor: Visitor): Promise<ServerDetail> {
      const viewer = visitor.user;
      const id = parseId(rawId);
      const page = id ? await pages.get(String(id), () => publicPage(id)) : undefined;
      if (!page || (page.hidden && page.ownerId !== viewer?.id && viewer?.role !== 'admin')) throw notFound(MSG.serverNotFound);
      const counted = page.ownerId !== viewer?.id && audience.view(page.id, visitor);
      const viewerState = await this.viewerState(page.id, page.ownerId, viewer);
      return { ...page.body, views: page.body.views + (counted ? 1 : 0), viewer: viewerState };
    },

    /** What the caller already did on a server, in one query. */
    async viewerState(serverId: number, ownerId: number, viewer: UserRow | undefined): Promise<ViewerState | null> {
      if (!viewer) return null;
      const row = await db
        .selectNoFrom((eb) => [
          eb.exists(eb.selectFrom('joins').select('id').where('serverId', '=', serverId).where('userId', '=', viewer.id)).as('joined'),
          eb.selectFrom('votes').select('type').where('serverId', '=', serverId).where('userId', '=', viewer.id).as('vote'),
        ])
        .executeTakeFirstOrThrow();
      return { joined: Boolean(row.joined), vote: row.vote ?? null, isOwner: ownerId === viewer.id };
    },

    async reviews(rawId: string, viewer: UserRow | undefined, limit: number, offset: number) {
      const row = await visible(rawId, viewer);
      const [reviews, total] = await Promise.all([reviewsPage(row.id, limit, offset), countReviews(row.id)]);
      return { reviews, total };
    },
  };
}

export type DiscoveryService = ReturnType<typeof discoveryService>;
