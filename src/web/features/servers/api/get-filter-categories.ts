import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { filterCategorySchema, type FilterCategory } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

/** `GET /api/filters/categories`: every filter, grouped by category. */
export async function getFilterCategories(): Promise<FilterCategory[]> {
  return z.array(filterCategorySchema).parse(await apiRequest('/api/filters/categories'));
}

/** Filters change with releases, not per visit: cached for the session. */
export function useFilterCategories() {
  return useQuery({ queryKey: serverKeys.categories, queryFn: getFilterCategories, staleTime: Infinity });
}
