import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dailyVoteStateSchema, type DailyVoteState } from '../../../../shared/schemas/daily-votes';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

const key = (id: string) => [...serverKeys.detail(id), 'daily-vote'] as const;

/** `GET /api/servers/{id}/vote`: the caller's last daily vote on the server and when the next may be cast. */
export function useDailyVoteState(id: string, enabled: boolean) {
  return useQuery({
    queryKey: key(id),
    queryFn: async (): Promise<DailyVoteState> =>
      dailyVoteStateSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(id)}/vote`)),
    enabled,
  });
}

/** `POST /api/servers/{id}/vote {playerName?}`: votes for the server, once every 24 hours. */
export function useDailyVote(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (playerName: string): Promise<DailyVoteState> =>
      dailyVoteStateSchema.parse(
        await apiRequest(`/api/servers/${encodeURIComponent(id)}/vote`, {
          method: 'POST',
          body: playerName.trim() ? { playerName: playerName.trim() } : {},
        }),
      ),
    onSuccess: async (state) => {
      // A state fetch still in flight was read before this vote: it must not overwrite it.
      await queryClient.cancelQueries({ queryKey: key(id) });
      queryClient.setQueryData(key(id), state);
      void queryClient.invalidateQueries({ queryKey: ['servers', 'list'] });
    },
    // A refused vote (voted already, elsewhere) may mean the state here is old.
    onError: () => void queryClient.invalidateQueries({ queryKey: key(id) }),
  });
}
