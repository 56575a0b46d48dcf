import { useQuery } from '@tanstack/react-query';
import { playerProfileSchema, type PlayerProfile } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';

export const playerKey = (id: string) => ['players', id] as const;

/** `GET /api/players/{id}`: the profile with joined and boosted servers and vote counts. */
export async function getPlayer(id: string): Promise<PlayerProfile> {
  return playerProfileSchema.parse(await apiRequest(`/api/players/${encodeURIComponent(id)}`));
}

export function usePlayer(id: string | undefined) {
  return useQuery({ queryKey: playerKey(id ?? ''), queryFn: () => getPlayer(id ?? ''), enabled: Boolean(id) });
}
