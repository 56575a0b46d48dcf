import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** Only what the web app needs so far of a server; the full shape arrives with the server features. */
const ownServerSchema = z.object({ id: z.string(), name: z.string() }).loose();
export type OwnServer = z.infer<typeof ownServerSchema>;

/** `GET /api/user/servers`: the caller's own servers (owners; `[]` when none). */
export async function getUserServers(): Promise<OwnServer[]> {
  return z.array(ownServerSchema).parse(await apiRequest('/api/user/servers'));
}

export function useUserServers(enabled = true) {
  return useQuery({ queryKey: ['user', 'servers'], queryFn: getUserServers, enabled });
}
