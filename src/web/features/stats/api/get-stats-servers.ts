import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { statsKeys } from './get-server-stats';

const statsServerSchema = z.object({ id: z.string(), name: z.string(), currentPlayers: z.number().nullable().optional() }).loose();
export type StatsServer = z.infer<typeof statsServerSchema>;

/** `GET /api/user/servers`: the owner's servers, for the picker and the push form's player count. */
export async function getStatsServers(): Promise<StatsServer[]> {
  return z.array(statsServerSchema).parse(await apiRequest('/api/user/servers'));
}

export function useStatsServers() {
  return useQuery({ queryKey: statsKeys.servers, queryFn: getStatsServers });
}
