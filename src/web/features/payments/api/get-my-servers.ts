import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { paymentKeys } from './keys';

const myServerSchema = z.object({ id: z.string(), name: z.string(), totalBoosts: z.number().optional() }).loose();
export type MyServer = z.infer<typeof myServerSchema>;

/** `GET /api/user/servers`: the servers an owner can boost or feature. */
export async function getMyServers(): Promise<MyServer[]> {
  return z.array(myServerSchema).parse(await apiRequest('/api/user/servers'));
}

export function useMyServers() {
  return useQuery({ queryKey: paymentKeys.servers, queryFn: getMyServers });
}
