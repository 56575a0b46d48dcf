import { sql, type Kysely } from 'kysely';

/**
 * The language a user chose for the site and their e-mails (docs/decisions/054-languages.md); null
 * until they choose: their pages follow the device and the browser, their e-mails are in English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN IF NOT EXISTS locale text
    CHECK (locale IN ('en', 'pt-BR', 'es', 'fr', 'de', 'pl', 'tr'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS locale`.execute(db);
}
