import type { FilterCategory } from '../../../shared/schemas/server';
import { MSG } from '../../../shared/messages';
import { badRequest } from '../../errors';
import type { FiltersRepository } from './filters.repository';

/**
 * The filter categories, read once at start-up (they change only with reference data, at
 * start-up): `GET /api/filters/categories` and every name → id lookup are served from memory.
 */
export async function loadFilterCatalog(repository: FiltersRepository) {
  const rows = await repository.listFilters();
  const byName = new Map(rows.map((r) => [r.name.toLowerCase(), r]));
  const nameById = new Map(rows.map((r) => [r.id, r.name]));
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
    /** The categories and their filters, in display order. */
    categories: () => categories,
    /** A filter's name by id (undefined for one the catalogue does not hold). */
    nameOf: (id: number): string | undefined => nameById.get(id),
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

/** The filter categories in memory, and name → id lookups. */
export type FilterCatalog = Awaited<ReturnType<typeof loadFilterCatalog>>;
