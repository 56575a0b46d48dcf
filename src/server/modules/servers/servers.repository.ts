import { sql, type Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../db/schema';
import type { Server } from '../../../shared/schemas/server';
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

export function serversRepository(db: Kysely<Database>) {
  return {
    listByOwner(ownerId: number, now: Date) {
      return selectServers(db, now).where('servers.ownerId', '=', ownerId).orderBy('servers.createdAt').orderBy('servers.id').execute();
    },
  };
}
