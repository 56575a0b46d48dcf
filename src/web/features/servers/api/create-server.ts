import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverSchema, type CreateServerBody, type Server } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

/** `POST /api/servers {name, statusMessage}` → 201 and the new server. */
export async function createServer(body: CreateServerBody): Promise<Server> {
  return serverSchema.parse(await apiRequest('/api/servers', { method: 'POST', body }));
}

export function useCreateServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createServer,
    // The dashboard opens next and must find the new server, not a cached "no servers".
    onSuccess: (server) => {
      queryClient.setQueryData<Server[]>(serverKeys.own, (list) => [...(list ?? []), server]);
      return queryClient.invalidateQueries({ queryKey: serverKeys.own });
    },
  });
}
