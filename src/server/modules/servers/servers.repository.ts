import { sql, type Kysely, type RawBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../db/schema';
import type { Server, Sort } from '../../../shared/schemas/server';
import { toApiId } from '../../lib/ids';

const DAY_MS = 24 * 3600_000;

/**
 * Selects servers with everything the API shows, in one query: filters and gallery come as
 * arrays and the 24-hour joins and 7-day boosts as counted subqueries (no query per row).
 */
export function selectServers(db: Kysely<Database>, now: Date) {
  return db
    .selectFrom('servers')
    .selectAll('servers')
    .select((eb) => [
      eb
        .selectFrom('serverFilters')
        .innerJoin('filters', 'filters.id', 'serverFilters.filterId')
        .select(sql<string[]>`coalesce(array_agg(filters.name ORDER BY filters.name), '{}')`.as('names'))
        .whereRef('serverFilters.serverId', '=', 'servers.id')
        .as('filterNames'),
      jsonArrayFrom(
        eb
          .selectFrom('media')
          .select('media.storageKey')
          .whereRef('media.serverId', '=', 'servers.id')
          .where('media.kind', '=', 'gallery')
          .orderBy('media.position'),
      ).as('gallery'),
      eb
        .selectFrom('joins')
        .select((j) => j.fn.countAll<number>().as('n'))
        .whereRef('joins.serverId', '=', 'servers.id')
        .where('joins.createdAt', '>', new Date(now.getTime() - DAY_MS))
        .as('recentJoins'),
      eb
        .selectFrom('boosts')
        .select((b) => b.fn.coalesce(b.fn.sum<number>('boosts.amount'), b.lit(0)).as('n'))
        .whereRef('boosts.serverId', '=', 'servers.id')
        .where('boosts.revokedAt', 'is', null)
        .where('boosts.createdAt', '>', new Date(now.getTime() - 7 * DAY_MS))
        .as('recentBoosts'),
    ]);
}

type SelectedServer = Awaited<ReturnType<ReturnType<typeof selectServers>['executeTakeFirstOrThrow']>>;

/** The API's server object (decisions §3). */
export function toApiServer(row: SelectedServer, storageUrl: (key: string) => string): Server {
  return {
    id: toApiId(row.id),
    name: row.name,
    ownerId: toApiId(row.ownerId),
    statusMessage: row.statusMessage,
    bio: row.bio,
    backgroundColor: row.backgroundColor,
    textColor: row.textColor,
    discordLink: row.discordLink,
    filters: row.filterNames ?? [],
    profilePicture: row.profilePicture,
    banner: row.banner,
    galleryImages: (row.gallery ?? []).map((m) => storageUrl(m.storageKey)),
    likes: row.likes,
    dislikes: row.dislikes,
    boosts: Number(row.recentBoosts ?? 0),
    totalBoosts: row.totalBoosts,
    joins: Number(row.recentJoins ?? 0),
    totalJoins: row.totalJoins,
    views: row.views,
    lastBoostedAt: row.lastBoostedAt ? row.lastBoostedAt.toISOString() : null,
    currentPlayers: row.currentPlayers,
    maxPlayers: row.maxPlayers,
    online: row.online,
    createdAt: row.createdAt.toISOString(),
  };
}

/** LIKE patterns match literally: the user's `%`, `_` and `\\` are escaped. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface ListOptions {
  q?: string | undefined;
  filterIds?: number[];
  sort: Sort;
  limit: number;
  offset: number;
}

export function serversRepository(db: Kysely<Database>) {
  return {
    findById(id: number, trx: Kysely<Database> = db) {
      return trx.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findFull(id: number, now: Date) {
      return selectServers(db, now).where('servers.id', '=', id).executeTakeFirst();
    },

    listByOwner(ownerId: number, now: Date) {
      return selectServers(db, now).where('servers.ownerId', '=', ownerId).orderBy('servers.createdAt').orderBy('servers.id').execute();
    },

    countByOwner(ownerId: number, trx: Kysely<Database> = db) {
      return trx
        .selectFrom('servers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ownerId', '=', ownerId)
        .executeTakeFirstOrThrow()
        .then((r) => r.n);
    },

    /**
     * One query for a page of listed servers and the total. The inner query finds the page's ids
     * in index order with a window count; only those rows get their filters, gallery and recent
     * counts. Name search takes every word as a partial match (trigram index); filters must all match.
     */
    async list(options: ListOptions, now: Date) {
      let page = db
        .selectFrom('servers')
        .select('servers.id')
        .select((eb) => eb.fn.countAll<number>().over().as('total'))
        .where('servers.hidden', '=', false);
      for (const word of (options.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
        page = page.where(sql<string>`lower(servers.name)`, 'like', `%${likeEscape(word)}%`);
      }
      if (options.filterIds && options.filterIds.length > 0) {
        const ids = options.filterIds;
        page = page.where('servers.id', 'in', (eb) =>
          eb
            .selectFrom('serverFilters')
            .select('serverFilters.serverId')
            .where('serverFilters.filterId', 'in', ids)
            .groupBy('serverFilters.serverId')
            .having((h) => h.fn.countAll(), '=', ids.length),
        );
      }
      if (options.sort === 'hot') page = page.where('servers.lastBoostedAt', 'is not', null);
      const order = SORT_ORDER[options.sort];
      for (const [expression, direction] of order) page = page.orderBy(expression, direction);
      page = page.limit(options.limit).offset(options.offset);

      let query = selectServers(db, now).innerJoin(page.as('page'), 'page.id', 'servers.id').select('page.total');
      for (const [expression, direction] of order) query = query.orderBy(expression, direction);
      const rows = await query.execute();
      return { rows, total: rows[0]?.total };
    },

    /** The total alone, for a page past the end (the window count has no row to ride on). */
    async count(options: ListOptions, now: Date): Promise<number> {
      const { total } = await this.list({ ...options, limit: 1, offset: 0 }, now);
      return total ?? 0;
    },

    justJoined(now: Date, limit: number) {
      return selectServers(db, now)
        .where('servers.hidden', '=', false)
        .where('servers.createdAt', '>', new Date(now.getTime() - DAY_MS))
        .orderBy('servers.createdAt', 'desc')
        .orderBy('servers.id', 'desc')
        .limit(limit)
        .execute();
    },
  };
}

/** Each sort of decisions §3, in the column order of its index in the initial migration. */
const SORT_ORDER: Record<Sort, Array<[RawBuilder<unknown>, 'asc' | 'desc']>> = {
  likes: [
    [sql`servers.likes`, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
  popular: [
    [sql`(servers.likes + servers.total_boosts + servers.total_joins)`, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
  hot: [
    [sql`servers.last_boosted_at`, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
  new: [
    [sql`servers.created_at`, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
  players: [
    [sql`servers.current_players`, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
  joins: [
    [sql`servers.total_joins`, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
};
