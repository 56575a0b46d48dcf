import { sql, type Kysely } from 'kysely';

/**
 * The Players sort ranks only what the game poller saw: a server never polled (online IS NULL)
 * has the key -1 and so comes after every polled one, even an empty one
 * (docs/decisions/029-ranking-integrity.md). The index holds that key, and the columns it is made
 * of so the live player total is an index-only range of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS servers_players_idx`.execute(db);
  await sql`CREATE INDEX servers_players_idx ON servers ((CASE WHEN online IS NULL THEN -1 ELSE current_players END) DESC, id) INCLUDE (current_players, online) WHERE NOT hidden`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS servers_players_idx`.execute(db);
  await sql`CREATE INDEX servers_players_idx ON servers (current_players DESC, id) WHERE NOT hidden`.execute(db);
}
