import { useQuery } from '@tanstack/react-query';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { apiRequest } from '../../../lib/api-client';
import { serverKeys } from './keys';

/** `GET /api/server-of-the-weekend`: this (or the coming) weekend's server, or `null`. */
export async function getServerOfTheWeekend(): Promise<Server | null> {
  return serverSchema.nullable().parse((await apiRequest('/api/server-of-the-weekend')) ?? null);
}

export function useServerOfTheWeekend() {
  return useQuery({ queryKey: serverKeys.weekend, queryFn: getServerOfTheWeekend });
}
