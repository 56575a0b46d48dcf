import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { MSG } from '../../../../shared/messages';
import { uploadMultipart } from '../../../lib/upload';
import { storeOwnServer } from './get-own-servers';

export interface CustomizeInput {
  name: string;
  statusMessage: string;
  bio: string;
  backgroundColor: string;
  textColor: string;
  discordLink: string;
  filters: string[];
}

/** `PUT /api/servers/{id}/customize` as multipart: the text fields, `filters` as a JSON string. */
export async function customizeServer({ id, fields }: { id: string; fields: CustomizeInput }): Promise<Server> {
  if (!id) throw new Error(MSG.serverMissing);
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, name === 'filters' ? JSON.stringify(value) : String(value));
  }
  return serverSchema.parse(await uploadMultipart(`/api/servers/${encodeURIComponent(id)}/customize`, form, { method: 'PUT' }));
}

export function useCustomizeServer() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: customizeServer, onSuccess: (server) => storeOwnServer(queryClient, server) });
}
