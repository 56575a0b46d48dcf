import { sql, type Kysely } from 'kysely';

/**
 * A server's history is read from its samples' key alone: the key carries what the history shows.
 * Samples are written a poll round at a time, every server's in turn, so one server's day of
 * samples (~480) lay on ~480 table pages, each read to answer its chart; with the columns in the
 * key's index the read is ~20 index pages (docs/decisions/069-server-history-answered-once.md).
 * The primary key's own index takes them (`INCLUDE`), rather than a second index beside it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE UNIQUE INDEX player_count_samples_covering ON player_count_samples (server_id, resolution, sampled_at)
    INCLUDE (players, online, samples, online_samples)`.execute(db);
  await sql`ALTER TABLE player_count_samples DROP CONSTRAINT player_count_samples_pkey,
    ADD CONSTRAINT player_count_samples_pkey PRIMARY KEY USING INDEX player_count_samples_covering`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE UNIQUE INDEX player_count_samples_plain ON player_count_samples (server_id, resolution, sampled_at)`.execute(db);
  await sql`ALTER TABLE player_count_samples DROP CONSTRAINT player_count_samples_pkey,
    ADD CONSTRAINT player_count_samples_pkey PRIMARY KEY USING INDEX player_count_samples_plain`.execute(db);
}
