import { useQuery } from '@tanstack/react-query';
import { serverSchema, type Server } from '../../../../shared/schemas/server';
import { fetchPageQuery, type PageQuery } from '../../../lib/page-query';
import { serverKeys } from './keys';

/** `GET /api/server-of-the-weekend`: this (or the coming) weekend's server, or `null`. */
export const weekendQuery: PageQuery<Server | null> = {
  key: () => serverKeys.weekend,
  path: '/api/server-of-the-weekend',
  parse: (answer) => serverSchema.nullable().parse(answer.data ?? null),
};

export async function getServerOfTheWeekend(): Promise<Server | null> {
  return fetchPageQuery(weekendQuery);
}

export function useServerOfTheWeekend() {
  return useQuery({ queryKey: weekendQuery.key(''), queryFn: getServerOfTheWeekend });
}
