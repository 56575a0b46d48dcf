import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** A server view to count: once per server, viewer and UTC day. */
export interface ViewRow {
  serverId: number;
  viewer: string;
  day: string;
}

/** A filter search to count: once per filter, viewer and UTC day. */
export interface SearchRow {
  filter: string;
  viewer: string;
  day: string;
  userId: number | null;
  at: Date;
}

/**
 * Batched writes of the view and popular-filter counts. The unique keys decide what counts
 * (`ON CONFLICT DO NOTHING`), so the rule holds across instances and restarts
 * (docs/decisions/014-counting-views-and-searches.md).
 */
export function audienceRepository(db: Kysely<Database>) {
  return {
    /**
     * Adds the views to their servers' counters in the same statement, so the counter always equals
     * the rows. A row whose view count alone changes keeps its `row_xid`: the search index has
     * nothing to read again, and the update can stay in place (docs/decisions/058-server-page-uncached.md).
     */
    async insertViews(batch: ViewRow[], tx: Executor = db): Promise<void> {
      const rows = sql.join(batch.map((v) => sql`(${v.serverId}::bigint, ${v.viewer}::text, ${v.day}::date)`));
      await sql`
      WITH incoming (server_id, viewer, day) AS (VALUES ${rows}),
      added AS (
        INSERT INTO server_views (server_id, viewer, day)
        SELECT incoming.server_id, incoming.viewer, incoming.day FROM incoming JOIN servers ON servers.id = incoming.server_id
        ON CONFLICT DO NOTHING
        RETURNING server_id
      )
      UPDATE servers SET views = servers.views + added_per_server.n
      FROM (SELECT server_id, count(*)::int AS n FROM added GROUP BY server_id) AS added_per_server
      WHERE servers.id = added_per_server.server_id`.execute(tx);
    },

    /** Logs the searches for popular filters; one a viewer already made today is left out. */
    async insertSearches(batch: SearchRow[], tx: Executor = db): Promise<void> {
      const rows = sql.join(
        batch.map((s) => sql`(${s.userId}::bigint, ${s.filter}::text, ${s.viewer}::text, ${s.day}::date, ${s.at}::timestamptz)`),
      );
      // A user deleted meanwhile leaves an anonymous row (as the foreign key's ON DELETE SET NULL would).
      await sql`
      INSERT INTO search_log (user_id, filter, viewer, day, created_at)
      SELECT users.id, incoming.filter, incoming.viewer, incoming.day, incoming.created_at
      FROM (VALUES ${rows}) AS incoming (user_id, filter, viewer, day, created_at)
      LEFT JOIN users ON users.id = incoming.user_id
      ON CONFLICT (filter, day, viewer) DO NOTHING`.execute(tx);
    },
  };
}

/** The count writes, as the audience counter receives them. */
export type AudienceRepository = ReturnType<typeof audienceRepository>;
