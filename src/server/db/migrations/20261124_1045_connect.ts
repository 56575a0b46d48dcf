import { sql, type Kysely } from 'kysely';

/** One-click connect: the owner's cfx.re join code, for FiveM and RedM servers that have one. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE servers ADD COLUMN cfx_code text CHECK (cfx_code ~ '^[a-z0-9]{4,12}$')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE servers DROP COLUMN cfx_code`.execute(db);
}
