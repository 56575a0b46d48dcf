import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Storage } from '../../adapters/storage';
import { LIMITS } from '../../../shared/limits';
import { MSG } from '../../../shared/messages';
import type { ListServersQuery, Review, ServerDetail, ViewerState } from '../../../shared/schemas/server';
import { REVIEWS_FIRST_PAGE } from '../../../shared/schemas/server';
import { notFound } from '../../errors';
import { parseId } from '../../lib/ids';
import { currentOrNextWeekend } from '../../lib/weekend';
import type { FilterCatalog } from '../filters/filters.catalog';
import { serversRepository, toApiServer } from './servers.repository';

interface Deps {
  db: Kysely<Database>;
  storage: Storage;
  filters: FilterCatalog;
  now: () => Date;
}

/** Who counts as one viewer for the once-a-day view count: the user, else a hash of IP and browser. */
export function viewerKey(user: UserRow | undefined, ip: string, userAgent: string | undefined): string {
  if (user) return `u:${user.id}`;
  return `a:${crypto
    .createHash('sha256')
    .update(`${ip}|${userAgent ?? ''}`)
    .digest('base64url')
    .slice(0, 22)}`;
}

/** Lists, search, server pages and their reviews (issue 3 "Discovery"). */
export function discoveryService({ db, storage, filters, now }: Deps) {
  const servers = serversRepository(db);
  const toApi = (row: Parameters<typeof toApiServer>[0]) => toApiServer(row, storage.url);

  const reviewsPage = async (serverId: number, limit: number, offset: number): Promise<Review[]> => {
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
      review: r.review,
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

  /** A listed server, or 404 (hidden ones are only seen by their owner). */
  const visible = async (rawId: string, viewer: UserRow | undefined) => {
    const id = parseId(rawId);
    const row = id ? await servers.findFull(id, now()) : undefined;
    if (!row || (row.hidden && row.ownerId !== viewer?.id && viewer?.role !== 'admin')) throw notFound(MSG.serverNotFound);
    return row;
  };

  return {
    /** `GET /api/servers`: one page and the total; searches with filters by players are logged. */
    async list(query: ListServersQuery, viewer: UserRow | undefined) {
      const names = (query.filters ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
      const chosen = filters.resolve(names);
      const options = { q: query.q, filterIds: chosen.map((f) => f.id), sort: query.sort, limit: query.limit, offset: query.offset };
      const { rows, total } = await servers.list(options, now());
      const count = total ?? (query.offset > 0 ? await servers.count(options, now()) : 0);
      if (chosen.length > 0 && query.offset === 0 && (!viewer || viewer.role === 'player')) {
        // Popular filters (decisions §5) count what players look for; paging through results is not a new search.
        await db
          .insertInto('searchLog')
          .values(chosen.map((f) => ({ userId: viewer?.id ?? null, filter: f.name })))
          .execute();
      }
      return { servers: rows.map(toApi), total: count };
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
     * the server, its newest reviews and what the caller already did.
     */
    async detail(rawId: string, viewer: UserRow | undefined, key: string): Promise<ServerDetail> {
      let row = await visible(rawId, viewer);
      if (row.ownerId !== viewer?.id) {
        const day = now().toISOString().slice(0, 10);
        const counted = await db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto('serverViews')
            .values({ serverId: row.id, viewer: key, day })
            .onConflict((oc) => oc.doNothing())
            .returning('serverId')
            .executeTakeFirst();
          if (inserted)
            await trx
              .updateTable('servers')
              .set((eb) => ({ views: eb('views', '+', 1) }))
              .where('id', '=', row.id)
              .execute();
          return Boolean(inserted);
        });
        if (counted) row = { ...row, views: row.views + 1 };
      }
      const [reviews, reviewsTotal, viewerState] = await Promise.all([
        reviewsPage(row.id, REVIEWS_FIRST_PAGE, 0),
        countReviews(row.id),
        this.viewerState(row.id, row.ownerId, viewer),
      ]);
      return { ...toApi(row), reviews, reviewsTotal, viewer: viewerState };
    },

    async viewerState(serverId: number, ownerId: number, viewer: UserRow | undefined): Promise<ViewerState | null> {
      if (!viewer) return null;
      const [join, vote] = await Promise.all([
        db.selectFrom('joins').select('id').where('serverId', '=', serverId).where('userId', '=', viewer.id).executeTakeFirst(),
        db.selectFrom('votes').select('type').where('serverId', '=', serverId).where('userId', '=', viewer.id).executeTakeFirst(),
      ]);
      return { joined: Boolean(join), vote: vote?.type ?? null, isOwner: ownerId === viewer.id };
    },

    async reviews(rawId: string, viewer: UserRow | undefined, limit: number, offset: number) {
      const row = await visible(rawId, viewer);
      const [reviews, total] = await Promise.all([reviewsPage(row.id, limit, offset), countReviews(row.id)]);
      return { reviews, total };
    },
  };
}

export type DiscoveryService = ReturnType<typeof discoveryService>;
