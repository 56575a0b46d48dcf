import { sql, type Kysely } from 'kysely';

/**
 * A dispute we win gives back what it took (docs/decisions/056-dispute-won.md). `closed_disputes`
 * keeps how each Stripe dispute ended, so a `charge.dispute.created` delivered after its dispute
 * was won takes nothing. A plan given back for the period its payment had paid ends by itself at
 * `subscriptions.ends_at`: no Stripe subscription bills or ends it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE closed_disputes (
      stripe_dispute_id text PRIMARY KEY,
      stripe_payment_intent_id text,
      status text NOT NULL,
      closed_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`ALTER TABLE subscriptions ADD COLUMN ends_at timestamptz`.execute(db);
  await sql`CREATE INDEX subscriptions_ends_at_idx ON subscriptions (ends_at) WHERE ends_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE subscriptions DROP COLUMN ends_at`.execute(db);
  await sql`DROP TABLE closed_disputes`.execute(db);
}
