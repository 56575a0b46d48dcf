import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { gameStatusSchema, historySchema, type GameStatusView, type History } from '../../../../shared/schemas/game-status';
import { apiRequest } from '../../../lib/api-client';

const gameStatusKeys = {
  games: ['games'] as const,
  status: (serverId: string) => ['servers', 'game', serverId] as const,
  history: (serverId: string, range: string) => ['servers', 'history', serverId, range] as const,
};

const gamesSchema = z.array(z.object({ id: z.string(), label: z.string(), port: z.number() }));

/** `GET /api/games`: the games whose servers can report their status. */
export function useGames() {
  return useQuery({
    queryKey: gameStatusKeys.games,
    queryFn: async () => gamesSchema.parse(await apiRequest('/api/games')),
    staleTime: Infinity,
  });
}

/** `GET /api/servers/{id}/game`: the owner's address and the last answer. */
export function useGameStatus(serverId: string) {
  return useQuery({
    queryKey: gameStatusKeys.status(serverId),
    queryFn: async (): Promise<GameStatusView> =>
      gameStatusSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/game`)),
  });
}

/** `PUT /api/servers/{id}/game`: sets the address; the server queries the game at once. */
export function useSetGameAddress(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { game: string; host: string; port: number }) =>
      gameStatusSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/game`, { method: 'PUT', body })),
    onSuccess: (status) => {
      client.setQueryData(gameStatusKeys.status(serverId), status);
      void client.invalidateQueries({ queryKey: ['servers'] });
    },
  });
}

/** `DELETE /api/servers/{id}/game`. */
export function useClearGameAddress(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => apiRequest(`/api/servers/${encodeURIComponent(serverId)}/game`, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['servers'] }),
  });
}

/** `GET /api/servers/{id}/history?range=`: player counts from the game, with average, peak and uptime. */
export function usePlayerHistory(serverId: string, range: History['range']) {
  return useQuery({
    queryKey: gameStatusKeys.history(serverId, range),
    queryFn: async (): Promise<History> =>
      historySchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/history?range=${range}`)),
    refetchInterval: 60_000,
  });
}
