import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { serverStatsSchema, type ServerStats } from '../../../../shared/schemas/stats';
import { apiRequest } from '../../../lib/api-client';
import { statsKeys } from './keys';

export type StatsRange = 7 | 30;

/** `GET /api/stats/servers/:id?days=7|30`: per day (oldest first), totals and all-time numbers of an own server. */
export async function getServerStats(id: string, days: StatsRange): Promise<ServerStats> {
  return serverStatsSchema.parse(await apiRequest(`/api/stats/servers/${encodeURIComponent(id)}?days=${days}`));
}

export function useServerStats(id: string, days: StatsRange) {
  return useQuery({
    queryKey: statsKeys.server(id, days),
    queryFn: () => getServerStats(id, days),
    enabled: id !== '',
    placeholderData: keepPreviousData,
  });
}
