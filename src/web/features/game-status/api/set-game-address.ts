import { useMutation, useQueryClient } from '@tanstack/react-query';
import { gameStatusSchema, type GameStatusView } from '../../../../shared/schemas/game-status';
import { apiRequest } from '../../../lib/api-client';
import { gameStatusKeys } from './keys';

/** The body of `gameAddressBodySchema` (src/shared); the server checks the game and the port. */
export interface GameAddressInput {
  game: string;
  host: string;
  port: number;
}

/** `PUT /api/servers/{id}/game {game, host, port}`: sets the address; the server queries the game at once. */
export async function setGameAddress(serverId: string, body: GameAddressInput): Promise<GameStatusView> {
  return gameStatusSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/game`, { method: 'PUT', body }));
}

/** Shows the fresh status at once and refreshes the server's counts, which now come from the game. */
export function useSetGameAddress(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: GameAddressInput) => setGameAddress(serverId, body),
    onSuccess: (status) => {
      client.setQueryData(gameStatusKeys.status(serverId), status);
      void client.invalidateQueries({ queryKey: ['servers'] });
    },
  });
}
