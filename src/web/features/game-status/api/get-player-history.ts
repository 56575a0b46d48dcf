import { useQuery } from '@tanstack/react-query';
import { historySchema, type History } from '../../../../shared/schemas/game-status';
import { apiRequest } from '../../../lib/api-client';
import { gameStatusKeys } from './keys';

/** `GET /api/servers/{id}/history?range=`: player counts from the game, with average, peak and uptime. */
export async function getPlayerHistory(serverId: string, range: History['range']): Promise<History> {
  return historySchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/history?range=${range}`));
}

/** Refetched every minute, so a page left open picks up new polls without a reload. */
export function usePlayerHistory(serverId: string, range: History['range']) {
  return useQuery({
    queryKey: gameStatusKeys.history(serverId, range),
    queryFn: () => getPlayerHistory(serverId, range),
    refetchInterval: 60_000,
  });
}
