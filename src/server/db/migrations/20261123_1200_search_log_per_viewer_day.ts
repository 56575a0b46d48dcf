import { sql, type Kysely } from 'kysely';

/**
 * Popular filters count a search once per viewer (the user, else the client's network), filter
 * and UTC day, and the database enforces it: a unique key that every instance's insert meets with
 * `ON CONFLICT DO NOTHING`. Rows logged before this keep one count each (a viewer of their own).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE search_log ADD COLUMN viewer text`.execute(db);
  await sql`ALTER TABLE search_log ADD COLUMN day date`.execute(db);
  await sql`UPDATE search_log SET viewer = 'legacy:' || id, day = (created_at AT TIME ZONE 'UTC')::date`.execute(db);
  await sql`ALTER TABLE search_log ALTER COLUMN viewer SET NOT NULL`.execute(db);
  await sql`ALTER TABLE search_log ALTER COLUMN day SET NOT NULL`.execute(db);
  await sql`ALTER TABLE search_log ALTER COLUMN day SET DEFAULT (now() AT TIME ZONE 'UTC')::date`.execute(db);
  await sql`CREATE UNIQUE INDEX search_log_viewer_day_key ON search_log (filter, day, viewer)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX search_log_viewer_day_key`.execute(db);
  await sql`ALTER TABLE search_log DROP COLUMN day`.execute(db);
  await sql`ALTER TABLE search_log DROP COLUMN viewer`.execute(db);
}
