import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { ChangedRow, IndexRow } from './search-index.types';

const INDEX_COLUMNS = [
  'id',
  'name',
  'hidden',
  'filterIds',
  'likes',
  'totalBoosts',
  'totalJoins',
  'currentPlayers',
  'online',
  'maxPlayers',
  'monthVotes',
  'createdAt',
  'lastBoostedAt',
] as const;

/**
 * What the in-memory search index reads: every server once, then the rows written since a
 * watermark (docs/decisions/028-search-index.md). The watermark is the oldest transaction still
 * running, taken before the read: everything older is committed and seen by the read; anything
 * newer is read again next time, so a transaction that commits late is never missed.
 */
export function searchIndexRepository(db: Kysely<Database>) {
  const watermark = async (): Promise<string> =>
    (await sql<{ w: string }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS w`.execute(db)).rows[0]!.w;

  return {
    /** The watermark to read changes from later: taken before a full load starts. */
    watermark,

    /** Servers after `afterId` in id order, hidden ones too (a later change may list them): the full load, in pages. */
    loadPage(afterId: number, limit: number): Promise<IndexRow[]> {
      return db.selectFrom('servers').select(INDEX_COLUMNS).where('id', '>', afterId).orderBy('id').limit(limit).execute();
    },

    /** The servers written and the ids deleted at or after `since`, and the next watermark. */
    async changesSince(since: string): Promise<{ rows: ChangedRow[]; deleted: number[]; watermark: string }> {
      const w = await watermark();
      const [rows, gone] = await Promise.all([
        db
          .selectFrom('servers')
          // Also the other figures a card shows: the cards a change left as they are stay held.
          .select([...INDEX_COLUMNS, 'dislikes', 'views'])
          // The changes' own table, by its index on the transaction: no index on servers follows
          // the counters a vote moves (docs/decisions/078-server-changes-beside-the-row.md).
          .where(
            'id',
            'in',
            db
              .selectFrom('serverChanges')
              .select('serverId')
              .where(sql<boolean>`row_xid >= ${since}::xid8`),
          )
          .execute(),
        db
          .selectFrom('serverIndexTombstones')
          .select('serverId')
          .where(sql<boolean>`row_xid >= ${since}::xid8`)
          .execute(),
      ]);
      return { rows, deleted: gone.map((g) => g.serverId), watermark: w };
    },
  };
}

/** The search index's reads, as its sync receives them. */
export type SearchIndexRepository = ReturnType<typeof searchIndexRepository>;
