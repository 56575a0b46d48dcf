import { useQuery } from '@tanstack/react-query';
import { revenueSchema, type Revenue } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/admin/revenue`: dollars by type for the last day, 7 and 30 days, and per day for 30 days. */
export async function getRevenue(): Promise<Revenue> {
  return revenueSchema.parse(await apiRequest('/api/admin/revenue'));
}

export function useRevenue() {
  return useQuery({ queryKey: adminKeys.revenue, queryFn: getRevenue });
}
