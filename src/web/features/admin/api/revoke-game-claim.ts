import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `POST /api/admin/game-claims/:id/revoke` → 204: the listing loses the address and gets a new code to prove it again. */
export async function revokeGameClaim(id: string): Promise<void> {
  await apiRequest(`/api/admin/game-claims/${encodeURIComponent(id)}/revoke`, { method: 'POST' });
}

export function useRevokeGameClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeGameClaim,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      // The listing's live numbers are gone from every public page.
      await queryClient.invalidateQueries({ queryKey: ['servers'] });
    },
  });
}
