import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** What link previews and the sitemap read: listed servers only. */
export function seoRepository(db: Kysely<Database>) {
  return {
    /** The preview fields of a listed (not hidden) server. */
    findListedServer(id: number, tx: Executor = db) {
      return tx
        .selectFrom('servers')
        .select(['id', 'name', 'statusMessage', 'bio', 'banner'])
        .where('id', '=', id)
        .where('hidden', '=', false)
        .executeTakeFirst();
    },

    /** Every listed server's id and last change, by id; 50,000 is a sitemap's limit. */
    listedServers(tx: Executor = db) {
      return tx.selectFrom('servers').select(['id', 'updatedAt']).where('hidden', '=', false).orderBy('id').limit(50_000).execute();
    },
  };
}

/** The SEO queries. */
export type SeoRepository = ReturnType<typeof seoRepository>;
