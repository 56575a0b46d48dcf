import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { serverSchema, TOTAL_CAPPED_HEADER, type Server, type Sort } from '../../../../shared/schemas/server';
import { apiRequestWithHeaders, totalCount } from '../../../lib/api-client';
import { serverKeys } from './keys';

export interface ListServersParams {
  q?: string;
  /** Filter names; a server must have all of them. */
  filters?: readonly string[];
  sort?: Sort;
  limit?: number;
  offset?: number;
  online?: boolean;
  freeSlots?: boolean;
  minPlayers?: number | undefined;
  maxPlayers?: number | undefined;
}

/**
 * `GET /api/servers`: one page of servers and the total from `X-Total-Count`; `capped` when the
 * server stopped counting there and there are more (shown as "2,000+").
 */
export async function listServers(params: ListServersParams): Promise<{ servers: Server[]; total: number; capped: boolean }> {
  const search = new URLSearchParams();
  if (params.q?.trim()) search.set('q', params.q.trim());
  if (params.filters?.length) search.set('filters', params.filters.join(','));
  if (params.sort) search.set('sort', params.sort);
  if (params.limit !== undefined) search.set('limit', String(params.limit));
  if (params.offset) search.set('offset', String(params.offset));
  if (params.online) search.set('online', 'true');
  if (params.freeSlots) search.set('freeSlots', 'true');
  if (params.minPlayers !== undefined) search.set('minPlayers', String(params.minPlayers));
  if (params.maxPlayers !== undefined) search.set('maxPlayers', String(params.maxPlayers));
  const { data, headers } = await apiRequestWithHeaders(`/api/servers?${search}`);
  const servers = z.array(serverSchema).parse(data);
  return { servers, total: totalCount(headers, servers.length), capped: headers.get(TOTAL_CAPPED_HEADER) === '1' };
}

/** Keeps the previous page on screen while the next one loads, so paging does not flash. */
export function useServerList(params: ListServersParams) {
  return useQuery({ queryKey: serverKeys.list(params), queryFn: () => listServers(params), placeholderData: keepPreviousData });
}
