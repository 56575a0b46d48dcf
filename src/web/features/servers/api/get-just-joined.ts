import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

/** `GET /api/servers/just-joined`: servers listed in the last 24 hours, newest first. */
export async function getJustJoined(): Promise<Server[]> {
  return z.array(serverSchema).parse(await apiRequest('/api/servers/just-joined'));
}

export function useJustJoined() {
  return useQuery({ queryKey: serverKeys.justJoined, queryFn: getJustJoined });
}
