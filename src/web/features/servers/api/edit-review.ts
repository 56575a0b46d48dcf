import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema } from '../../../../shared/schemas/common';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

/** `PUT /api/servers/{id}/review {review}`: changes the caller's own review text (one per account and server). */
export function useEditReview(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (review: string) =>
      messageSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/review`, { method: 'PUT', body: { review } }))
        .message,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: serverKeys.reviews(serverId) });
      await queryClient.invalidateQueries({ queryKey: serverKeys.detail(serverId) });
    },
  });
}
