import { useQuery } from '@tanstack/react-query';
import { playerCountSchema } from '../../../../shared/schemas/player-count';
import { apiRequest } from '../../../lib/api-client';

export const playerCountQueryKey = ['player-count'] as const;

/** `GET /api/player-count` → the live number of players across listed servers. */
export async function getPlayerCount(): Promise<number> {
  return playerCountSchema.parse(await apiRequest('/api/player-count')).count;
}

export function usePlayerCount() {
  return useQuery({ queryKey: playerCountQueryKey, queryFn: getPlayerCount, staleTime: 0 });
}
