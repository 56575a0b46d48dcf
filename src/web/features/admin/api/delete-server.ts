import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `DELETE /api/admin/servers/:id` → 204. */
export async function deleteServer(id: string): Promise<void> {
  await apiRequest(`/api/admin/servers/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteServer,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      // Lists, search and the home page must not show it any more.
      await queryClient.invalidateQueries({ queryKey: ['servers'] });
    },
  });
}
