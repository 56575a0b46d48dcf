import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { serverStatsSchema, type ServerStats } from '../../../../shared/schemas/stats';
import { apiRequest } from '../../../lib/api-client';

export type StatsRange = 7 | 30;

export const statsKeys = {
  server: (id: string, days: StatsRange) => ['stats', 'server', id, days] as const,
  /** Under `['user', 'servers']` so a new or changed server refreshes the picker too. */
  servers: ['user', 'servers', 'stats'] as const,
  pushCount: ['user', 'push-count'] as const,
};

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
