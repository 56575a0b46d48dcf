import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `DELETE /api/admin/users/:id` → 204: the user, their servers, votes and sessions go. */
export async function deleteUser(id: string): Promise<void> {
  await apiRequest(`/api/admin/users/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      // Their servers went with them: the server list below and every public list must drop them.
      await queryClient.invalidateQueries({ queryKey: ['servers'] });
    },
  });
}
