import { sql, type Kysely } from 'kysely';

/**
 * The hold rule counts a server's daily votes from one network in the last day, inside the
 * statement that casts each daily vote. Votes and joins answer that count from an index on
 * (server, network, time); daily votes had none, so each new daily vote read every daily vote the
 * server got that day, and a campaign's votes slowed one another (docs/decisions/061-hold-counts.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS daily_votes_server_network_idx ON daily_votes (server_id, network, created_at) WHERE network IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS daily_votes_server_network_idx`.execute(db);
}
