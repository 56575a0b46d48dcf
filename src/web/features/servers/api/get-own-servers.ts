import { useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

/** `GET /api/user/servers` answers the full server of the public list, so every page reads one shape. */
const ownServersSchema = z.array(serverSchema);

/**
 * `GET /api/user/servers`: the caller's own servers in full (`[]` for anyone but an owner). The
 * dashboard, the stats and payments pickers and the post-login redirect all read this one list.
 */
export async function getOwnServers(): Promise<Server[]> {
  return ownServersSchema.parse(await apiRequest('/api/user/servers'));
}

export function useOwnServers() {
  return useQuery({ queryKey: serverKeys.own, queryFn: getOwnServers });
}

/** Puts the server an owner call answered into the own-servers list and drops stale public copies. */
export function storeOwnServer(queryClient: QueryClient, server: Server): void {
  queryClient.setQueryData<Server[]>(serverKeys.own, (list) => list?.map((s) => (s.id === server.id ? server : s)));
  void queryClient.invalidateQueries({ queryKey: serverKeys.detail(server.id) });
  void queryClient.invalidateQueries({ queryKey: ['servers', 'list'] });
}
