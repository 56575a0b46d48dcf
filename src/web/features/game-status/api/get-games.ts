import { useQuery } from '@tanstack/react-query';
import { gameListSchema, type GameList } from '../../../../shared/schemas/game-status';
import { apiRequest } from '../../../lib/api-client';
import { gameStatusKeys } from './keys';

/** `GET /api/games`: the games whose servers can report their status, with their usual port. */
export async function getGames(): Promise<GameList> {
  return gameListSchema.parse(await apiRequest('/api/games'));
}

/** The list is fixed while the app runs, so it is fetched once. */
export function useGames() {
  return useQuery({ queryKey: gameStatusKeys.games, queryFn: getGames, staleTime: Infinity });
}
