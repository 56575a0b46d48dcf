import { sql, type Kysely } from 'kysely';

/**
 * Search at 100,000 servers (docs/decisions/022-search-at-scale.md):
 * - `servers.filter_ids`, the server's filter ids in order (integers: there are about 60), so "has
 *   every chosen filter" is one indexed `filter_ids @> ARRAY[...]` test on the row instead of
 *   grouping `server_filters`. Triggers on `server_filters` keep it equal to that table for every
 *   writer, the ones that insert rows directly included; the rows already there are copied once here.
 * - A `simple` text-search index of names, for words too short for the trigram index (whole words).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE servers ADD COLUMN filter_ids integer[] NOT NULL DEFAULT '{}'`.execute(db);
  await sql`
    UPDATE servers s SET filter_ids = f.ids
    FROM (SELECT server_id, array_agg(filter_id::integer ORDER BY filter_id) AS ids FROM server_filters GROUP BY server_id) f
    WHERE f.server_id = s.id`.execute(db);
  await sql`
    CREATE FUNCTION servers_sync_filter_ids() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE servers s
      SET filter_ids = coalesce((SELECT array_agg(f.filter_id::integer ORDER BY f.filter_id) FROM server_filters f WHERE f.server_id = s.id), '{}')
      WHERE s.id IN (SELECT DISTINCT server_id FROM changed);
      RETURN NULL;
    END $$`.execute(db);
  // One statement-level trigger per event and side: a bulk insert updates each server once.
  await sql`
    CREATE TRIGGER server_filters_sync_insert AFTER INSERT ON server_filters
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION servers_sync_filter_ids()`.execute(db);
  await sql`
    CREATE TRIGGER server_filters_sync_delete AFTER DELETE ON server_filters
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION servers_sync_filter_ids()`.execute(db);
  await sql`
    CREATE TRIGGER server_filters_sync_update_old AFTER UPDATE ON server_filters
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION servers_sync_filter_ids()`.execute(db);
  await sql`
    CREATE TRIGGER server_filters_sync_update_new AFTER UPDATE ON server_filters
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION servers_sync_filter_ids()`.execute(db);
  await sql`CREATE INDEX servers_filter_ids_idx ON servers USING gin (filter_ids) WHERE NOT hidden`.execute(db);
  // Not partial: the planner takes word statistics only from a whole-table expression index; without
  // them it guesses 0.5 % of rows for any word ("rp" is in a third of the names) and picks bad plans.
  await sql`CREATE INDEX servers_name_words_idx ON servers USING gin (to_tsvector('simple', name))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX servers_name_words_idx`.execute(db);
  await sql`DROP INDEX servers_filter_ids_idx`.execute(db);
  await sql`DROP TRIGGER server_filters_sync_update_new ON server_filters`.execute(db);
  await sql`DROP TRIGGER server_filters_sync_update_old ON server_filters`.execute(db);
  await sql`DROP TRIGGER server_filters_sync_delete ON server_filters`.execute(db);
  await sql`DROP TRIGGER server_filters_sync_insert ON server_filters`.execute(db);
  await sql`DROP FUNCTION servers_sync_filter_ids()`.execute(db);
  await sql`ALTER TABLE servers DROP COLUMN filter_ids`.execute(db);
}
