import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { popularFilterSchema } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/admin/popular-filters`: the top 10 filters players searched with in the last 30 days. */
export async function getPopularFilters() {
  return z.array(popularFilterSchema).parse(await apiRequest('/api/admin/popular-filters'));
}

export function usePopularFilters() {
  return useQuery({ queryKey: adminKeys.popularFilters, queryFn: getPopularFilters });
}
