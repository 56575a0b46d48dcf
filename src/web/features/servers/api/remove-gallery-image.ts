import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { storeOwnServer } from './get-own-servers';

/** `DELETE /api/servers/{id}/gallery?url=<image url>` → the updated server. */
export async function removeGalleryImage({ id, url }: { id: string; url: string }): Promise<Server> {
  const path = `/api/servers/${encodeURIComponent(id)}/gallery?url=${encodeURIComponent(url)}`;
  return serverSchema.parse(await apiRequest(path, { method: 'DELETE' }));
}

export function useRemoveGalleryImage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeGalleryImage, onSuccess: (server) => storeOwnServer(queryClient, server) });
}
