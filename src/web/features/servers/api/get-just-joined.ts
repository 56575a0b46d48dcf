import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { fetchPageQuery, type PageQuery } from '../../../lib/page-query';
import { serverKeys } from './keys';

/** `GET /api/servers/just-joined`: servers listed in the last 24 hours, newest first. */
export const justJoinedQuery: PageQuery<Server[]> = {
  key: () => serverKeys.justJoined,
  path: '/api/servers/just-joined',
  parse: (answer) => z.array(serverSchema).parse(answer.data),
};

export async function getJustJoined(): Promise<Server[]> {
  return fetchPageQuery(justJoinedQuery);
}

export function useJustJoined() {
  return useQuery({ queryKey: justJoinedQuery.key(''), queryFn: getJustJoined });
}
