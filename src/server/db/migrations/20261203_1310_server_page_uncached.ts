import { sql, type Kysely } from 'kysely';

/**
 * What a server page opened by a new visitor costs the database (docs/decisions/058-server-page-uncached.md):
 *
 * - A server's counted joins by player, index-only: what tells whether a review's author joined
 *   the server (their reviews are listed first). Each review a page's scan passed asked the unique
 *   key on (player, server) and then the join's row for its status: on a popular server that was
 *   hundreds of heap reads for ten reviews.
 * - A write that changes nothing but a server's view count no longer moves `row_xid`. The view
 *   counter's batch wrote every viewed server's row with a new `row_xid`: a new entry in each of
 *   the table's 14 indexes per view (no in-place update was possible), then the search index read
 *   each row back and dropped its card, to be read again. Nothing the index orders or filters by
 *   is a view count; the server page reads it from the row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS joins_counted_idx ON joins (server_id, user_id) WHERE status = 'counted'`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION servers_stamp_row_xid() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      was servers;
    BEGIN
      IF NEW.views IS DISTINCT FROM OLD.views THEN
        was := OLD;
        was.views := NEW.views;
        IF was IS NOT DISTINCT FROM NEW THEN
          RETURN NEW;
        END IF;
      END IF;
      NEW.row_xid := pg_current_xact_id();
      RETURN NEW;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION servers_stamp_row_xid() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.row_xid := pg_current_xact_id();
      RETURN NEW;
    END $$`.execute(db);
  await sql`DROP INDEX IF EXISTS joins_counted_idx`.execute(db);
}
