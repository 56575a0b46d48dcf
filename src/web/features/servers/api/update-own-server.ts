import type { QueryClient } from '@tanstack/react-query';
import type { Server } from '../../../../shared/schemas/server';
import { serverKeys } from './keys';

/** Puts the server an owner call answered into the dashboard's list and drops stale public copies. */
export function storeOwnServer(queryClient: QueryClient, server: Server): void {
  queryClient.setQueryData<Server[]>(serverKeys.own, (list) => list?.map((s) => (s.id === server.id ? server : s)));
  void queryClient.invalidateQueries({ queryKey: serverKeys.detail(server.id) });
  void queryClient.invalidateQueries({ queryKey: ['servers', 'list'] });
}
