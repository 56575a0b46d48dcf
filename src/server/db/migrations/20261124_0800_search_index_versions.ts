import { sql, type Kysely } from 'kysely';

/**
 * The in-memory search index follows the table by transaction id
 * (docs/decisions/028-search-index.md):
 * - `servers.row_xid`: the transaction that last wrote the row (inserts by default, updates by a
 *   trigger, so every writer is seen: the app, the poller, the seed, a test's direct update).
 * - `server_index_tombstones`: the id and transaction of each deleted server, so a delta sees deletes.
 * A delta reads the rows written at or after the oldest transaction still running at the previous
 * read (`pg_snapshot_xmin`), so a transaction that committed late is never skipped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A constant default first (no table rewrite), then the real one for new rows.
  await sql`ALTER TABLE servers ADD COLUMN row_xid xid8 NOT NULL DEFAULT '0'`.execute(db);
  await sql`ALTER TABLE servers ALTER COLUMN row_xid SET DEFAULT pg_current_xact_id()`.execute(db);
  await sql`CREATE INDEX servers_row_xid_idx ON servers (row_xid)`.execute(db);
  await sql`
    CREATE FUNCTION servers_stamp_row_xid() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.row_xid := pg_current_xact_id();
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER servers_stamp_row_xid BEFORE UPDATE ON servers FOR EACH ROW EXECUTE FUNCTION servers_stamp_row_xid()`.execute(
    db,
  );

  await sql`
    CREATE TABLE server_index_tombstones (
      server_id integer NOT NULL,
      row_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
    )`.execute(db);
  await sql`CREATE INDEX server_index_tombstones_row_xid_idx ON server_index_tombstones (row_xid)`.execute(db);
  await sql`
    CREATE FUNCTION servers_record_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO server_index_tombstones (server_id) SELECT id FROM gone;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER servers_record_tombstones AFTER DELETE ON servers
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION servers_record_tombstones()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER servers_record_tombstones ON servers`.execute(db);
  await sql`DROP FUNCTION servers_record_tombstones()`.execute(db);
  await sql`DROP TABLE server_index_tombstones`.execute(db);
  await sql`DROP TRIGGER servers_stamp_row_xid ON servers`.execute(db);
  await sql`DROP FUNCTION servers_stamp_row_xid()`.execute(db);
  await sql`DROP INDEX servers_row_xid_idx`.execute(db);
  await sql`ALTER TABLE servers DROP COLUMN row_xid`.execute(db);
}
