import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { preparedMarker } from '../../db/database';
import { isoText } from '../../db/iso-text';
import { batcher } from '../../lib/batcher';
import type { ServerFields } from './servers.mapper';
import { DAY_MS } from './server-select.repository';

const SERVER_PAGES = preparedMarker('server-pages');

/** A vote shown as a review (what `votes_reviews_idx` holds), for the alias `v`. */
const SHOWN = `v.review IS NOT NULL AND NOT v.hidden AND v.status = 'counted'`;

/** One review of the page's first page, as the query writes it (times already as ISO text). */
export interface PageReviewRow {
  type: 'like' | 'dislike';
  review: string;
  createdAt: string;
  editedAt: string | null;
  joined: boolean;
  username: string;
  displayName: string | null;
  profilePicture: string | null;
}

/** A server page's row: the server as the API shows it, its game address and last poll, and its first reviews. */
export interface ServerPageRow extends ServerFields {
  hidden: boolean;
  game: string | null;
  gameHost: string | null;
  gamePort: number | null;
  cfxCode: string | null;
  lastPolledAt: Date | null;
  gameMap: string | null;
  gameVersion: string | null;
  showPlayerNames: boolean;
  playerNames: string[] | null;
  /** Shown reviews in all (0 when none were asked for). */
  reviewsTotal: number;
  /** The first page of reviews: joined authors first, then newest first (empty when none were asked for). */
  reviews: PageReviewRow[];
}

type RawPageRow = Omit<ServerPageRow, 'filterNames' | 'gallery' | 'reviews' | 'reviewsTotal' | 'recentJoins' | 'recentBoosts'> & {
  filterIds: number[];
  galleryKeys: string[];
  recentJoins: number | string;
  recentBoosts: number | string;
  reviewsTotal: number | string;
  reviews: PageReviewRow[] | null;
};

/** Most pages read by one statement. */
const MOST_PAGES_AT_ONCE = 32;
/** Statements of pages at once: the rest queue for the next, which reads them all together. */
const STATEMENTS_AT_ONCE = 3;

interface PageAsk {
  id: number;
  now: Date;
  reviews: number;
}

/**
 * Everything a server page shows from the database, in one statement run as a named prepared
 * statement (planned once per connection): the server's columns, its filters, gallery, 24-hour
 * joins, 7-day boosts, how many reviews it has and the first `reviews` of them. An uncached page
 * asked three statements (server, review page, review count) built by the query builder: their
 * compiling, planning and round trips were most of an uncached page's cost
 * (docs/decisions/058-server-page-uncached.md).
 *
 * Pages asked together (the requests that arrived in one turn of the event loop, or while the
 * statements before them ran) are read by one statement: under a burst of shared links each page's
 * own statement, its round trip and the database process it woke were most of the app's time
 * (docs/decisions/062-server-pages-read-together.md). Alone, a page goes out at once as before.
 *
 * The review page is the one `discoveryRepository.reviewsPage` reads: reviews of authors who
 * joined first, then the rest, newest first within each; each kind read newest first from
 * `votes_reviews_idx` and cut at the page, then merged (docs/decisions/045-review-pages.md).
 * `reviews` 0 (reviews turned off) reads neither the reviews nor their count.
 *
 * Filter names come from memory, read once: filters are reference data, written only at start-up
 * (as the filter catalogue reads them). Joined to every page, the filter table's 60 rows were most
 * of the rows a page read.
 */
export function serverPageReader(db: Kysely<Database>) {
  let names: Promise<Map<number, string>> | undefined;
  const filterNames = () => {
    if (!names) {
      names = db
        .selectFrom('filters')
        .select(['id', 'name'])
        .execute()
        .then((rows) => new Map(rows.map((r) => [r.id, r.name])));
      // A failed read is tried again by the next page.
      names.catch(() => (names = undefined));
    }
    return names;
  };
  const complete = (row: RawPageRow, byId: Map<number, string>): ServerPageRow =>
    // The driver's row, completed in place: copying its forty fields was most of this function's time.
    Object.assign(row, {
      // In code-unit order, as cards sort them.
      filterNames: row.filterIds.flatMap((f) => byId.get(f) ?? []).sort(),
      gallery: row.galleryKeys.map((storageKey) => ({ storageKey })),
      recentJoins: Number(row.recentJoins),
      recentBoosts: Number(row.recentBoosts),
      reviewsTotal: Number(row.reviewsTotal),
      reviews: row.reviews ?? [],
    });
  const pages = batcher<PageAsk, ServerPageRow | undefined>(
    async (asks) => {
      const byId = await filterNames();
      // One statement per review count asked (they differ only while the reviews toggle changes),
      // each as of the latest time asked: the asks are at most a statement's time apart.
      const found = new Map<string, RawPageRow>();
      for (const reviews of new Set(asks.map((a) => a.reviews))) {
        const mine = asks.filter((a) => a.reviews === reviews);
        const now = new Date(Math.max(...mine.map((a) => a.now.getTime())));
        const rows = await readRows(db, [...new Set(mine.map((a) => a.id))], now, reviews);
        for (const row of rows) found.set(`${reviews}:${row.id}`, row);
      }
      // A server asked twice in one batch gets one row, completed once and answered to both.
      const done = new Map<string, ServerPageRow>();
      return asks.map((a) => {
        const key = `${a.reviews}:${a.id}`;
        const row = found.get(key);
        if (!row) return undefined;
        let page = done.get(key);
        if (!page) done.set(key, (page = complete(row, byId)));
        return page;
      });
    },
    { maxBatch: MOST_PAGES_AT_ONCE, maxInFlight: STATEMENTS_AT_ONCE },
  );
  return (id: number, now: Date, reviews: number): Promise<ServerPageRow | undefined> => pages.add({ id, now, reviews });
}

/** A server page reader, as the servers repository holds one. */
export type ServerPageReader = ReturnType<typeof serverPageReader>;

async function readRows(db: Kysely<Database>, ids: number[], now: Date, reviews: number): Promise<RawPageRow[]> {
  const day = new Date(now.getTime() - DAY_MS);
  const week = new Date(now.getTime() - 7 * DAY_MS);
  const result = await sql<RawPageRow>`${sql.raw(SERVER_PAGES)}
    SELECT s.id, s.owner_id, s.name, s.status_message, s.bio, s.background_color, s.text_color, s.discord_link,
      s.profile_picture, s.banner, s.likes, s.dislikes, s.total_boosts, s.total_joins, s.views, s.last_boosted_at,
      s.current_players, s.max_players, s.online, s.hidden, s.created_at, s.month_votes,
      s.game, s.game_host, s.game_port, s.cfx_code, s.last_polled_at, s.game_map, s.game_version, s.show_player_names,
      s.player_names,
      s.filter_ids,
      (SELECT coalesce(array_agg(m.storage_key ORDER BY m.position), '{}') FROM media m
        WHERE m.server_id = s.id AND m.kind = 'gallery') AS gallery_keys,
      (SELECT count(*) FROM joins j WHERE j.server_id = s.id AND j.created_at > ${day}) AS recent_joins,
      (SELECT coalesce(sum(b.amount), 0) FROM boosts b
        WHERE b.server_id = s.id AND b.revoked_at IS NULL AND b.created_at > ${week}) AS recent_boosts,
      CASE WHEN ${reviews}::int > 0 THEN
        (SELECT count(*) FROM votes v WHERE v.server_id = s.id AND ${sql.raw(SHOWN)})
      ELSE 0 END AS reviews_total,
      CASE WHEN ${reviews}::int > 0 THEN (
        SELECT json_agg(json_build_object(
            'type', v.type, 'review', v.review,
            'createdAt', ${sql.raw(isoText('v.created_at'))}, 'editedAt', ${sql.raw(isoText('v.edited_at'))},
            'joined', r.joined, 'username', u.username, 'displayName', u.display_name, 'profilePicture', u.profile_picture)
          ORDER BY r.joined DESC, r.created_at DESC, r.id DESC)
        FROM (
          SELECT arms.* FROM (
            (SELECT v.id, v.created_at, true AS joined
              FROM joins j JOIN votes v ON v.user_id = j.user_id AND v.server_id = j.server_id
              WHERE j.server_id = s.id AND j.status = 'counted' AND ${sql.raw(SHOWN)}
              ORDER BY v.created_at DESC, v.id DESC LIMIT ${reviews}::int)
            UNION ALL
            (SELECT v.id, v.created_at, false AS joined
              FROM votes v
              WHERE v.server_id = s.id AND ${sql.raw(SHOWN)}
                AND NOT EXISTS (SELECT 1 FROM joins j
                  WHERE j.user_id = v.user_id AND j.server_id = s.id AND j.status = 'counted')
              ORDER BY v.created_at DESC, v.id DESC LIMIT ${reviews}::int)
          ) AS arms
          ORDER BY arms.joined DESC, arms.created_at DESC, arms.id DESC LIMIT ${reviews}::int
        ) AS r
        JOIN votes v ON v.id = r.id
        JOIN users u ON u.id = v.user_id)
      END AS reviews
    FROM servers s WHERE s.id = ANY(${ids}::bigint[])`.execute(db);
  return result.rows;
}
