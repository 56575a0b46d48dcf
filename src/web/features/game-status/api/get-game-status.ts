import { useQuery } from '@tanstack/react-query';
import { gameStatusSchema, type GameStatusView } from '../../../../shared/schemas/game-status';
import { apiRequest } from '../../../lib/api-client';
import { gameStatusKeys } from './keys';

/** `GET /api/servers/{id}/game`: the owner's game address and the last answer of the game. */
export async function getGameStatus(serverId: string): Promise<GameStatusView> {
  return gameStatusSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/game`));
}

export function useGameStatus(serverId: string) {
  return useQuery({ queryKey: gameStatusKeys.status(serverId), queryFn: () => getGameStatus(serverId) });
}
