import { sql, type Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../db/schema';

/** One day in milliseconds: the window of "joins" and of the just-joined list. */
export const DAY_MS = 24 * 3600_000;

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
        .select(sql<string[]>`coalesce(array_agg(filters.name ORDER BY filters.name COLLATE "C"), '{}')`.as('names'))
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

/** A row of `selectServers`: a server with its filters, gallery and recent counts. */
export type SelectedServer = Awaited<ReturnType<ReturnType<typeof selectServers>['executeTakeFirstOrThrow']>>;
