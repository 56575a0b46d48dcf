import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { FilterCategory } from '../../../shared/schemas/server';
import { MSG } from '../../../shared/messages';
import { badRequest } from '../../errors';

/**
 * The filter categories, read once at start-up (they change only with reference data, at
 * start-up): `GET /api/filters/categories` and every name → id lookup are served from memory.
 */
export async function loadFilterCatalog(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('filters')
    .innerJoin('filterCategories', 'filterCategories.id', 'filters.categoryId')
    .select(['filters.id', 'filters.name', 'filterCategories.name as category'])
    .orderBy('filterCategories.position')
    .orderBy('filters.position')
    .execute();
  const byName = new Map(rows.map((r) => [r.name.toLowerCase(), r]));
  const categories: FilterCategory[] = [];
  for (const row of rows) {
    let category = categories.at(-1);
    if (category?.category !== row.category) {
      category = { category: row.category, filters: [] };
      categories.push(category);
    }
    category.filters.push(row.name);
  }

  return {
    categories: () => categories,
    /** The named filters as stored (case-insensitive, duplicates dropped); an unknown name is a 400. */
    resolve(names: readonly string[]): Array<{ id: number; name: string }> {
      const found = new Map<number, { id: number; name: string }>();
      for (const name of names) {
        const row = byName.get(name.trim().toLowerCase());
        if (!row) throw badRequest(`${MSG.unknownFilter}: ${name}`);
        found.set(row.id, { id: row.id, name: row.name });
      }
      return [...found.values()];
    },
  };
}

export type FilterCatalog = Awaited<ReturnType<typeof loadFilterCatalog>>;
