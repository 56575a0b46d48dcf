import { sql, type Kysely } from 'kysely';

/**
 * A link to Discord started by a signed-in user remembers the account's token version: the
 * return from Discord links only while it is the same, so a password change (which ends every
 * session) also ends a link an intruder started with the old password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE oauth_states ADD COLUMN token_version integer`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE oauth_states DROP COLUMN token_version`.execute(db);
}
