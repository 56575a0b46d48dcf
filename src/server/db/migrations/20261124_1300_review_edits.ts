import { sql, type Kysely } from 'kysely';

/**
 * One review per account and server, editable: when its author last changed the text. Reviews of
 * players who joined are listed first, so a server's reviews are read by (server, status) and
 * the joins looked up by (user, server), which the existing unique index serves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE votes ADD COLUMN edited_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE votes DROP COLUMN edited_at`.execute(db);
}
