import { sql, type Kysely } from 'kysely';

/**
 * What the game itself says, kept from the last poll: its map, its version and the names of the
 * players online (at most 200), with the owner's switch to keep the names off the page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE servers ADD COLUMN game_map text`.execute(db);
  await sql`ALTER TABLE servers ADD COLUMN game_version text`.execute(db);
  await sql`ALTER TABLE servers ADD COLUMN player_names text[]`.execute(db);
  await sql`ALTER TABLE servers ADD COLUMN show_player_names boolean NOT NULL DEFAULT true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE servers DROP COLUMN show_player_names, DROP COLUMN player_names, DROP COLUMN game_version, DROP COLUMN game_map`.execute(
    db,
  );
}
