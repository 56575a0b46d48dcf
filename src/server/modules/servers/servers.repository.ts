import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import { PLAYERS_KEY } from '../../db/players-key';
import { preparedMarker } from '../../db/database';
import { LIST_TOTAL_CAP, type Sort } from '../../../shared/schemas/server';
import { asksLive, type LiveFilter } from './search-index.types';
import { INDEXED_WORD, SUBSTRING_MIN } from './search-index.words';
import { DAY_MS, selectServers } from './server-select.repository';
import { serverPageReader } from './server-page.repository';

const CARDS_BY_IDS = preparedMarker('cards-by-ids');

/** LIKE patterns match literally: the user's `%`, `_` and `\\` are escaped. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of the public list: name search, filters that must all match, live state, sort and paging. */
export interface ListOptions extends LiveFilter {
  q?: string | undefined;
  filterIds?: number[];
  sort: Sort;
  limit: number;
  offset: number;
}

/** Reads of servers: one by id, an owner's, the public list and the just-joined list. */
export function serversRepository(db: Kysely<Database>) {
  const readPage = serverPageReader(db);
  return {
    /** The bare row (no filters or media), or undefined. */
    findById(id: number, tx: Executor = db) {
      return tx.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** One server with everything the API shows, or undefined. */
    findFull(id: number, now: Date) {
      return selectServers(db, now).where('servers.id', '=', id).executeTakeFirst();
    },

    /** Everything a server page shows, with its first `reviews` reviews and their total, in one statement; or undefined. */
    findPage(id: number, now: Date, reviews: number) {
      return readPage(id, now, reviews);
    },

    /**
     * The cards of several servers, in no order (a page the search index found): the columns a list
     * shows, the filter ids, the gallery keys and the 24-hour joins and 7-day boosts. Written as
     * plain SQL: every uncached page of a search pays for it, and the query builder's compile and
     * JSON gallery cost twice the database's time here.
     */
    async cardsByIds(ids: readonly number[], now: Date): Promise<CardRow[]> {
      if (ids.length === 0) return [];
      const day = new Date(now.getTime() - DAY_MS);
      const week = new Date(now.getTime() - 7 * DAY_MS);
      // Run on every uncached list page: planned once per connection (docs/decisions/028-search-index.md).
      const result = await sql<CardRow>`${sql.raw(CARDS_BY_IDS)}
        SELECT s.id, s.owner_id, s.name, s.status_message, s.bio, s.background_color, s.text_color, s.discord_link,
          s.profile_picture, s.banner, s.likes, s.dislikes, s.total_boosts, s.total_joins, s.views, s.last_boosted_at,
          s.current_players, s.max_players, s.online, s.hidden, s.filter_ids, s.created_at, s.month_votes,
          (SELECT coalesce(array_agg(m.storage_key ORDER BY m.position), '{}') FROM media m
            WHERE m.server_id = s.id AND m.kind = 'gallery') AS gallery_keys,
          (SELECT count(*) FROM joins j WHERE j.server_id = s.id AND j.created_at > ${day}) AS recent_joins,
          (SELECT coalesce(sum(b.amount), 0) FROM boosts b
            WHERE b.server_id = s.id AND b.revoked_at IS NULL AND b.created_at > ${week}) AS recent_boosts
        FROM servers s WHERE s.id = ANY(${sql.val([...ids])}::integer[])`.execute(db);
      return result.rows;
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
     * One query for a page of listed servers and its total. The inner query finds the page's ids in
     * index order, one more than the page to know whether more follow; only the page's rows get
     * their filters, gallery and recent counts. Pages within the first `LIST_TOTAL_CAP` matches
     * also count matches up to that cap; deeper pages only say whether more follow
     * (docs/decisions/022-search-at-scale.md).
     */
    async list(options: ListOptions, now: Date) {
      const order = SORT_ORDER[options.sort];
      let page = matching(db, options).select('servers.id');
      for (const [expression, direction] of order) page = page.orderBy(expression, direction);
      page = page.limit(options.limit + 1).offset(options.offset);

      const counts = options.offset + options.limit < LIST_TOTAL_CAP;
      let query = selectServers(db, now)
        .innerJoin(page.as('page'), 'page.id', 'servers.id')
        .select(() => (counts ? countUpTo(db, options, LIST_TOTAL_CAP) : sql<number | null>`NULL::bigint`).as('total'));
      for (const [expression, direction] of order) query = query.orderBy(expression, direction);
      const found = await query.execute();
      const more = found.length > options.limit;
      const rows = more ? found.slice(0, options.limit) : found;
      if (rows.length === 0) return { rows, count: undefined };
      const counted = found[0]!.total == null ? undefined : Number(found[0]!.total);
      return { rows, count: pageTotal(options, rows.length, more, counted) };
    },

    /** The capped total alone, for a page past the end (the count has no row to ride on). */
    async count(options: ListOptions): Promise<{ total: number; capped: boolean }> {
      const capAt = options.offset + LIST_TOTAL_CAP;
      const row = await db.selectNoFrom(() => countUpTo(db, options, capAt).as('total')).executeTakeFirstOrThrow();
      return capped(Number(row.total), capAt);
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

/**
 * Listed servers matching the search, by the search index's rules (`search-index.words.ts`): every
 * word of `q` (3 letters or more: anywhere in the name; shorter: a whole word of the name) and every
 * chosen filter (`filter_ids`, kept equal to `server_filters` by triggers). Read by SQL only while
 * the search index loads, so no index serves the names or filters
 * (docs/decisions/063-indexes-the-search-index-replaced.md).
 */
function matching(db: Kysely<Database>, options: ListOptions) {
  let query = db.selectFrom('servers').where('servers.hidden', '=', false);
  for (const word of (options.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
    query =
      word.length < SUBSTRING_MIN && INDEXED_WORD.test(word)
        ? query.where(sql<boolean>`to_tsvector('simple', servers.name) @@ plainto_tsquery('simple', ${word})`)
        : query.where(sql<string>`lower(servers.name)`, 'like', `%${likeEscape(word)}%`);
  }
  if (options.filterIds && options.filterIds.length > 0) {
    query = query.where(sql<boolean>`servers.filter_ids @> ${sql.val(options.filterIds)}::integer[]`);
  }
  if (options.sort === 'hot') query = query.where('servers.lastBoostedAt', 'is not', null);
  if (asksLive(options)) query = query.where('servers.online', '=', true);
  if (options.freeSlots) query = query.where(sql<boolean>`servers.current_players < servers.max_players`);
  if (options.minPlayers !== undefined) query = query.where('servers.currentPlayers', '>=', options.minPlayers);
  if (options.maxPlayers !== undefined) query = query.where('servers.currentPlayers', '<=', options.maxPlayers);
  return query;
}

/** How many servers match, counting at most `capAt + 1` of them (no count over every match). */
function countUpTo(db: Kysely<Database>, options: ListOptions, capAt: number) {
  return db
    .selectFrom(
      matching(db, options)
        .select(sql.lit(1).as('one'))
        .limit(capAt + 1)
        .as('m'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'));
}

/** The total to report: exact up to `capAt`, else `capAt` and a flag that there are more. */
const capped = (counted: number, capAt: number) => (counted > capAt ? { total: capAt, capped: true } : { total: counted, capped: false });

/**
 * The total of a non-empty page: exact when the page is the last one or the count stayed under the
 * cap; else a lower bound past this page (`capped`), so the next page can always be asked for.
 */
function pageTotal(options: ListOptions, shown: number, more: boolean, counted: number | undefined) {
  if (!more) return { total: options.offset + shown, capped: false };
  if (counted !== undefined && counted <= LIST_TOTAL_CAP) return { total: counted, capped: false };
  return { total: Math.max(LIST_TOTAL_CAP, options.offset + shown + 1), capped: true };
}

/** Each sort of the public list, in the search index's order; hot, new and players keep an index (`servers_<sort>_idx`). */
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
    [PLAYERS_KEY, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
  joins: [
    [sql`servers.total_joins`, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
  votes: [
    [sql`servers.month_votes`, 'desc'],
    [sql`servers.id`, 'asc'],
  ],
};

/** A server's card as `cardsByIds` reads it (counts as the driver gives them: bigint as text). */
export interface CardRow {
  id: number;
  ownerId: number;
  name: string;
  statusMessage: string;
  bio: string;
  backgroundColor: string;
  textColor: string;
  discordLink: string | null;
  profilePicture: string | null;
  banner: string | null;
  likes: number;
  dislikes: number;
  totalBoosts: number;
  totalJoins: number;
  views: number;
  lastBoostedAt: Date | null;
  currentPlayers: number;
  maxPlayers: number | null;
  online: boolean | null;
  hidden: boolean;
  filterIds: number[];
  createdAt: Date;
  monthVotes: number;
  galleryKeys: string[];
  recentJoins: string | number;
  recentBoosts: string | number;
}

/** The server reads, as the services receive them. */
export type ServersRepository = ReturnType<typeof serversRepository>;
