import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

export type ServerAction = 'join' | 'like' | 'dislike';

/**
 * `POST /api/servers/{id}/join`, `/like` or `/dislike {review?}` → the server with its new counters.
 * A review is only sent with a vote, and only when it is not blank.
 */
export async function actOnServer({ id, action, review }: { id: string; action: ServerAction; review?: string }): Promise<Server> {
  const text = review?.trim();
  const body = action === 'join' ? undefined : text ? { review: text } : {};
  return serverSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(id)}/${action}`, { method: 'POST', body }));
}

/** Refreshes the page's reviews (a new one may be first) and every list the counters show in. */
export function useServerAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: actOnServer,
    onSuccess: (server) => {
      // The page's own state (joined, voted) comes back with it: a join from Play now shows on the Join button.
      void queryClient.invalidateQueries({ queryKey: serverKeys.detail(server.id) });
      void queryClient.invalidateQueries({ queryKey: serverKeys.reviews(server.id) });
      void queryClient.invalidateQueries({ queryKey: ['servers', 'list'] });
    },
  });
}
