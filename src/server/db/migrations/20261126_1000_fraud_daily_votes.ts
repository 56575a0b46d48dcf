import { sql, type Kysely } from 'kysely';

/** The fraud review voids and releases daily votes too: each action records which. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE fraud_actions ADD COLUMN daily_vote_ids bigint[] NOT NULL DEFAULT '{}'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE fraud_actions DROP COLUMN daily_vote_ids`.execute(db);
}
