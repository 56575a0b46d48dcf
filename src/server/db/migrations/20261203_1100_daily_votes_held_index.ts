import { sql, type Kysely } from 'kysely';

/**
 * Held daily votes are counted at every metrics scrape, as held votes and joins are: a partial
 * index like theirs keeps that count to the few held rows instead of a scan of every vote ever cast.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS daily_votes_held_idx ON daily_votes (server_id) WHERE status = 'held'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS daily_votes_held_idx`.execute(db);
}
