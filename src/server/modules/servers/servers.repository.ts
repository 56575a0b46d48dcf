import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import type { Sort } from '../../../shared/schemas/server';
import { DAY_MS, selectServers } from './server-select.repository';

/** LIKE patterns match literally: the user's `%`, `_` and `\\` are escaped. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of the public list: name search, filters that must all match, sort and paging. */
export interface ListOptions {
  q?: string | undefined;
  filterIds?: number[];
  sort: Sort;
  limit: number;
  offset: number;
}

/** Reads of servers: one by id, an owner's, the public list and the just-joined list. */
export function serversRepository(db: Kysely<Database>) {
  return {
    /** The bare row (no filters or media), or undefined. */
    findById(id: number, tx: Executor = db) {
      return tx.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** One server with everything the API shows, or undefined. */
    findFull(id: number, now: Date) {
      return selectServers(db, now).where('servers.id', '=', id).executeTakeFirst();
    },

    /** An owner's servers, oldest first. */
    listByOwner(ownerId: number, now: Date) {
      return selectServers(db, now).where('servers.ownerId', '=', ownerId).orderBy('servers.createdAt').orderBy('servers.id').execute();
    },

    /** How many servers an owner has (hidden ones included). */
    countByOwner(ownerId: number, tx: Executor = db) {
      return tx
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

    /** Listed servers created in the last 24 hours, newest first. */
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

/** Each sort of the public list, in the column order of its index in the initial migration. */
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

/** The server reads, as the services receive them. */
export type ServersRepository = ReturnType<typeof serversRepository>;
