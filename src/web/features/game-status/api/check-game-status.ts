import { useMutation, useQueryClient } from '@tanstack/react-query';
import { gameStatusSchema, type GameStatusView } from '../../../../shared/schemas/game-status';
import { apiRequest } from '../../../lib/api-client';
import { gameStatusKeys } from './keys';

/** `POST /api/servers/{id}/game/check`: asks the game at once (a pending claim is checked for its code). */
export async function checkGameStatus(serverId: string): Promise<GameStatusView> {
  return gameStatusSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/game/check`, { method: 'POST' }));
}

/** Shows the answer at once; a check that verified the address changes the public numbers, so the server's queries refresh too. */
export function useCheckGameStatus(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => checkGameStatus(serverId),
    onSuccess: (status) => {
      client.setQueryData(gameStatusKeys.status(serverId), status);
      void client.invalidateQueries({ queryKey: ['servers'] });
    },
  });
}
