import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageSchema } from '../../../../shared/schemas/common';
import { apiKeyCreatedSchema, apiKeyListSchema } from '../../../../shared/schemas/owner-api';
import { apiRequest } from '../../../lib/api-client';

const base = (serverId: string) => `/api/servers/${encodeURIComponent(serverId)}/api-keys`;
const key = (serverId: string) => ['api-keys', serverId] as const;

/** `GET /api/servers/{id}/api-keys`: the server's keys (never the keys themselves). */
export function useApiKeys(serverId: string) {
  return useQuery({ queryKey: key(serverId), queryFn: async () => apiKeyListSchema.parse(await apiRequest(base(serverId))) });
}

/** `POST /api/servers/{id}/api-keys {name}` → the new key, shown this once. */
export function useCreateApiKey(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => apiKeyCreatedSchema.parse(await apiRequest(base(serverId), { method: 'POST', body: { name } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key(serverId) }),
  });
}

/** `DELETE /api/servers/{id}/api-keys/{keyId}`: the key stops working at once. */
export function useRevokeApiKey(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) =>
      messageSchema.parse(await apiRequest(`${base(serverId)}/${encodeURIComponent(keyId)}`, { method: 'DELETE' })).message,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key(serverId) }),
  });
}
