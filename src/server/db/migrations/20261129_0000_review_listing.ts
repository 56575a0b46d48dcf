import { sql, type Kysely } from 'kysely';

/**
 * A server's shown reviews, newest first, as a page of them reads them: a popular server's page
 * of reviews no longer reads every vote it ever had (28,000 on the benchmark's biggest) to find
 * the ones with a text. Also what counts them, and what tells the reviews of players who joined
 * (by author), index-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS votes_reviews_idx ON votes (server_id, created_at DESC, id DESC) INCLUDE (user_id) WHERE review IS NOT NULL AND NOT hidden AND status = 'counted'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS votes_reviews_idx`.execute(db);
}
