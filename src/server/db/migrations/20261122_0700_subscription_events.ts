import { sql, type Kysely } from 'kysely';

/**
 * Stripe's subscription events can arrive in any order: each subscription remembers the time of
 * the newest event applied, so an older one never overwrites a newer state.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE subscriptions ADD COLUMN last_event_at timestamptz`.execute(db);
  await sql`ALTER TABLE checkout_sessions ADD COLUMN stripe_payment_intent_id text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE subscriptions DROP COLUMN last_event_at`.execute(db);
  await sql`ALTER TABLE checkout_sessions DROP COLUMN stripe_payment_intent_id`.execute(db);
}
