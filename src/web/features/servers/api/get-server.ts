import { useQuery } from '@tanstack/react-query';
import { serverDetailSchema, type ServerDetail } from '../../../../shared/schemas/server';
import { fetchPageQuery, type PageQuery } from '../../../lib/page-query';
import { useSession } from '../../../lib/session';
import { serverKeys } from './keys';

/** `GET /api/servers/{id}`: the server, its newest reviews and what the caller already did. Keyed by the caller too: `viewer` depends on who asks. */
export function serverQuery(id: string): PageQuery<ServerDetail> {
  return {
    key: (userId) => [...serverKeys.detail(id), userId],
    path: `/api/servers/${encodeURIComponent(id)}`,
    parse: (answer) => serverDetailSchema.parse(answer.data),
    personal: true,
  };
}

export function useServer(id: string | undefined) {
  const session = useSession();
  const query = serverQuery(id ?? '');
  return useQuery({
    queryKey: query.key(session?.user.id ?? ''),
    queryFn: () => fetchPageQuery(query),
    enabled: Boolean(id),
  });
}
