import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { followedServersSchema, followStateSchema, type FollowState } from '../../../../shared/schemas/follows';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

const key = (id: string, userId: string) => [...serverKeys.detail(id), 'follow', userId] as const;
export const followedKey = ['follows'] as const;

/** `GET /api/servers/{id}/follow`: the follower count and whether the caller follows. */
export function useFollowState(id: string, userId: string) {
  return useQuery({
    queryKey: key(id, userId),
    queryFn: async (): Promise<FollowState> => followStateSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(id)}/follow`)),
  });
}

/** `POST` or `DELETE /api/servers/{id}/follow`: follow or stop following. */
export function useToggleFollow(id: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (follow: boolean): Promise<FollowState> =>
      followStateSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(id)}/follow`, { method: follow ? 'POST' : 'DELETE' })),
    onSuccess: (state) => {
      queryClient.setQueryData(key(id, userId), state);
      void queryClient.invalidateQueries({ queryKey: followedKey });
    },
  });
}

/** `GET /api/users/me/follows`: the caller's followed servers with their live status and next event. */
export function useFollowedServers(enabled: boolean) {
  return useQuery({
    queryKey: followedKey,
    queryFn: async () => followedServersSchema.parse(await apiRequest('/api/users/me/follows')),
    enabled,
  });
}
