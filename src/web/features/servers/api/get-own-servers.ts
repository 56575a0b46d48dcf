import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

/** `GET /api/user/servers`: the caller's own servers in full, for the dashboard. */
export async function getOwnServers(): Promise<Server[]> {
  return z.array(serverSchema).parse(await apiRequest('/api/user/servers'));
}

export function useOwnServers() {
  return useQuery({ queryKey: serverKeys.own, queryFn: getOwnServers });
}
