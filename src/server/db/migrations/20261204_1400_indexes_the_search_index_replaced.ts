import { sql, type Kysely } from 'kysely';

/**
 * Lists and searches are answered from the in-memory search index; SQL pages them only in the
 * seconds before its first load. The indexes that served those SQL pages (three sorts, the name
 * trigrams and words, the filter ids) were still written on every vote, join and view: the
 * counters' update is never a HOT update (`row_xid` changes), so each one wrote to all of them.
 * Dropped (docs/decisions/063-indexes-the-search-index-replaced.md).
 */
const REPLACED: Array<[name: string, definition: string]> = [
  ['servers_likes_idx', 'ON servers (likes DESC, id) WHERE NOT hidden'],
  ['servers_popular_idx', 'ON servers ((likes + total_boosts + total_joins) DESC, id) WHERE NOT hidden'],
  ['servers_joins_idx', 'ON servers (total_joins DESC, id) WHERE NOT hidden'],
  ['servers_name_trgm_idx', 'ON servers USING gin (lower(name) gin_trgm_ops)'],
  ['servers_name_words_idx', "ON servers USING gin (to_tsvector('simple', name))"],
  ['servers_filter_ids_idx', 'ON servers USING gin (filter_ids) WHERE NOT hidden'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name] of REPLACED) await sql`DROP INDEX IF EXISTS ${sql.raw(name)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, definition] of REPLACED) await sql`CREATE INDEX IF NOT EXISTS ${sql.raw(name)} ${sql.raw(definition)}`.execute(db);
}
