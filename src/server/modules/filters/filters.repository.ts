import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** The filter reference data. */
export function filtersRepository(db: Kysely<Database>) {
  return {
    /** Every filter with its category's name, in the order categories and filters are shown. */
    listFilters(tx: Executor = db) {
      return tx
        .selectFrom('filters')
        .innerJoin('filterCategories', 'filterCategories.id', 'filters.categoryId')
        .select(['filters.id', 'filters.name', 'filterCategories.name as category'])
        .orderBy('filterCategories.position')
        .orderBy('filters.position')
        .execute();
    },
  };
}

/** The filter reference data's query. */
export type FiltersRepository = ReturnType<typeof filtersRepository>;
