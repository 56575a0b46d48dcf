import { sql, type Kysely } from 'kysely';

/**
 * The search index reads what was written since its last read from a narrow table of its own,
 * `server_changes` (a server's id and the transaction that last changed it), instead of from an
 * index on `servers.row_xid` (docs/decisions/078-server-changes-beside-the-row.md). With that
 * index, every counter update of a vote moved an indexed column, so no update of `servers` could
 * be made in place: each vote wrote a new entry into every index of the table. Without it a
 * counter update is made in place (heap-only), and the change costs a row update in the narrow
 * table and its two small indexes.
 *
 * `servers.row_xid` stays, stamped as before (a change of the view count alone keeps it): the
 * statement triggers log the rows whose stamp is the writing transaction's, once per statement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE server_changes (
      server_id integer PRIMARY KEY,
      row_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
    )`.execute(db);
  await sql`INSERT INTO server_changes (server_id, row_xid) SELECT id, row_xid FROM servers`.execute(db);
  await sql`CREATE INDEX server_changes_row_xid_idx ON server_changes (row_xid)`.execute(db);
  await sql`
    CREATE FUNCTION servers_log_changes() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- In id order: two statements logging the same servers wait for each other, never deadlock.
      INSERT INTO server_changes (server_id, row_xid)
        SELECT id, row_xid FROM changed WHERE row_xid = pg_current_xact_id() ORDER BY id
        ON CONFLICT (server_id) DO UPDATE SET row_xid = EXCLUDED.row_xid
        WHERE server_changes.row_xid IS DISTINCT FROM EXCLUDED.row_xid;
      RETURN NULL;
    END $$`.execute(db);
  // A trigger with a transition table takes one event: one for inserts, one for updates.
  await sql`
    CREATE TRIGGER servers_log_inserts AFTER INSERT ON servers
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION servers_log_changes()`.execute(db);
  await sql`
    CREATE TRIGGER servers_log_updates AFTER UPDATE ON servers
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION servers_log_changes()`.execute(db);
  // A deleted server's change goes with it (its tombstone tells the index).
  await sql`
    CREATE OR REPLACE FUNCTION servers_record_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO server_index_tombstones (server_id) SELECT id FROM gone;
      DELETE FROM server_changes WHERE server_id IN (SELECT id FROM gone);
      RETURN NULL;
    END $$`.execute(db);
  await sql`DROP INDEX servers_row_xid_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX servers_row_xid_idx ON servers (row_xid)`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION servers_record_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO server_index_tombstones (server_id) SELECT id FROM gone;
      RETURN NULL;
    END $$`.execute(db);
  await sql`DROP TRIGGER servers_log_updates ON servers`.execute(db);
  await sql`DROP TRIGGER servers_log_inserts ON servers`.execute(db);
  await sql`DROP FUNCTION servers_log_changes()`.execute(db);
  await sql`DROP TABLE server_changes`.execute(db);
}
