import { sql, type Kysely } from 'kysely';

/**
 * Push promotions fan out from rows fixed when the owner sends: one delivery per push
 * subscription, one inbox notification per player who joined. A worker that dies mid-way leaves
 * the undelivered rows pending for the retry, and the delivered ones marked, so nobody gets it twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE push_deliveries (
      promotion_id bigint NOT NULL REFERENCES push_promotions(id) ON DELETE CASCADE,
      subscription_id bigint NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      sent_at timestamptz,
      PRIMARY KEY (promotion_id, subscription_id)
    )`.execute(db);
  await sql`CREATE INDEX push_deliveries_pending_idx ON push_deliveries (promotion_id) WHERE status = 'pending'`.execute(db);
  await sql`ALTER TABLE notifications ADD COLUMN promotion_id bigint REFERENCES push_promotions(id) ON DELETE CASCADE`.execute(db);
  await sql`CREATE UNIQUE INDEX notifications_promotion_user_key ON notifications (promotion_id, user_id) WHERE promotion_id IS NOT NULL`.execute(
    db,
  );
  await sql`ALTER TABLE push_promotions ADD COLUMN status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'done'))`.execute(
    db,
  );
  await sql`ALTER TABLE push_promotions ADD COLUMN delivered integer NOT NULL DEFAULT 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE push_promotions DROP COLUMN delivered`.execute(db);
  await sql`ALTER TABLE push_promotions DROP COLUMN status`.execute(db);
  await sql`DROP INDEX notifications_promotion_user_key`.execute(db);
  await sql`ALTER TABLE notifications DROP COLUMN promotion_id`.execute(db);
  await sql`DROP TABLE push_deliveries`.execute(db);
}
