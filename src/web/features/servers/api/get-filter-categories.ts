import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { filterCategorySchema, type FilterCategory } from '../../../../shared/schemas/server';
import { fetchPageQuery, type PageQuery } from '../../../lib/page-query';
import { serverKeys } from './keys';

/** `GET /api/filters/categories`: every filter, grouped by category. */
export const filterCategoriesQuery: PageQuery<FilterCategory[]> = {
  key: () => serverKeys.categories,
  path: '/api/filters/categories',
  parse: (answer) => z.array(filterCategorySchema).parse(answer.data),
  forSession: true,
};

export async function getFilterCategories(): Promise<FilterCategory[]> {
  return fetchPageQuery(filterCategoriesQuery);
}

/** Filters change with releases, not per visit: cached for the session. */
export function useFilterCategories() {
  return useQuery({ queryKey: filterCategoriesQuery.key(''), queryFn: getFilterCategories, staleTime: Infinity });
}
