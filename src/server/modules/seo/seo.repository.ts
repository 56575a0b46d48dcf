import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** What the sitemap reads: listed servers only (link previews read the server pages' cache). */
export function seoRepository(db: Kysely<Database>) {
  return {
    /** Every listed server's id and last change, by id; 50,000 is a sitemap's limit. */
    listedServers(tx: Executor = db) {
      return tx.selectFrom('servers').select(['id', 'updatedAt']).where('hidden', '=', false).orderBy('id').limit(50_000).execute();
    },
  };
}

/** The SEO queries. */
export type SeoRepository = ReturnType<typeof seoRepository>;
