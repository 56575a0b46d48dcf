import { useQuery } from '@tanstack/react-query';
import { pushCountSchema } from '../../../../shared/schemas/notifications';
import { apiRequest } from '../../../lib/api-client';
import { statsKeys } from './keys';

/** `GET /api/notifications/push-count` → `{count, limit}`: promotions sent in the last 24 h and the plan's limit. */
export async function getPushCount() {
  return pushCountSchema.parse(await apiRequest('/api/notifications/push-count'));
}

export function usePushCount() {
  return useQuery({ queryKey: statsKeys.pushCount, queryFn: getPushCount, staleTime: 0 });
}
