import { useQuery } from '@tanstack/react-query';
import { serverDetailSchema, type ServerDetail } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { serverKeys } from './keys';

/** `GET /api/servers/{id}`: the server, its newest reviews and what the caller already did. */
export async function getServer(id: string): Promise<ServerDetail> {
  return serverDetailSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(id)}`));
}

/** Keyed by the session too: `viewer` depends on who asks. */
export function useServer(id: string | undefined) {
  const session = useSession();
  return useQuery({
    queryKey: [...serverKeys.detail(id ?? ''), session?.user.id ?? ''],
    queryFn: () => getServer(id ?? ''),
    enabled: Boolean(id),
  });
}
