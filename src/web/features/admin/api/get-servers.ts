import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequestWithHeaders, totalCount } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const SERVERS_PAGE_SIZE = 10;

const adminServerSchema = z
  .object({ id: z.string(), name: z.string(), ownerId: z.string().nullable().optional(), likes: z.number(), totalJoins: z.number() })
  .loose();
export type AdminServer = z.infer<typeof adminServerSchema>;

/** `GET /api/servers?sort=new`: every listed server, newest first, a page at a time. */
export async function getAdminServers(page: number): Promise<{ servers: AdminServer[]; total: number }> {
  const search = new URLSearchParams({ sort: 'new', limit: String(SERVERS_PAGE_SIZE), offset: String((page - 1) * SERVERS_PAGE_SIZE) });
  const { data, headers } = await apiRequestWithHeaders(`/api/servers?${search}`);
  const servers = z.array(adminServerSchema).parse(data);
  return { servers, total: totalCount(headers, servers.length) };
}

export function useAdminServers(page: number) {
  return useQuery({ queryKey: adminKeys.servers(page), queryFn: () => getAdminServers(page), placeholderData: keepPreviousData });
}
