import { sql, type Kysely } from 'kysely';

/**
 * Premium's boost credits become a balance on the server, spent by its owner before paying
 * (docs/decisions/034-boost-credit-balance.md). Credits already given as boosts stay given.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE servers ADD COLUMN boost_credits integer NOT NULL DEFAULT 0 CHECK (boost_credits >= 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE servers DROP COLUMN boost_credits`.execute(db);
}
