import { useQuery } from '@tanstack/react-query';
import { analyticsSchema, type Analytics } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/admin/analytics`: users by role, servers, joins, votes, boosts, push promotions, signups per day. */
export async function getAnalytics(): Promise<Analytics> {
  return analyticsSchema.parse(await apiRequest('/api/admin/analytics'));
}

export function useAnalytics() {
  return useQuery({ queryKey: adminKeys.analytics, queryFn: getAnalytics });
}
