import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LIMITS } from '../../../../shared/limits';
import { serverSchema, TOTAL_CAPPED_HEADER, type Server, type Sort } from '../../../../shared/schemas/server';
import { totalCount } from '../../../lib/api-client';
import { fetchPageQuery, type PageQuery } from '../../../lib/page-query';
import { serverKeys } from './keys';

/** The top row of `/home`: the ten most liked servers. */
export const HOME_TOP = { sort: 'likes', limit: LIMITS.homeTop } as const;

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
export function serverListQuery(params: ListServersParams): PageQuery<ServerListPage> {
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
  return {
    key: () => serverKeys.list(params),
    path: `/api/servers?${search}`,
    parse: ({ data, headers }) => {
      const servers = z.array(serverSchema).parse(data);
      return { servers, total: totalCount(new Headers(headers), servers.length), capped: headers[TOTAL_CAPPED_HEADER] === '1' };
    },
  };
}

export interface ServerListPage {
  servers: Server[];
  total: number;
  capped: boolean;
}

export async function listServers(params: ListServersParams): Promise<ServerListPage> {
  return fetchPageQuery(serverListQuery(params));
}

/** Keeps the previous page on screen while the next one loads, so paging does not flash. */
export function useServerList(params: ListServersParams) {
  return useQuery({ queryKey: serverKeys.list(params), queryFn: () => listServers(params), placeholderData: keepPreviousData });
}
