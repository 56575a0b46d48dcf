import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `DELETE /api/servers/{id}/game` → 204: the server stops polling the game. */
export async function clearGameAddress(serverId: string): Promise<void> {
  await apiRequest(`/api/servers/${encodeURIComponent(serverId)}/game`, { method: 'DELETE' });
}

export function useClearGameAddress(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => clearGameAddress(serverId),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['servers'] }),
  });
}
