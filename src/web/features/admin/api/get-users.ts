import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { adminUserSchema, type AdminUser } from '../../../../shared/schemas/admin';
import { apiRequestWithHeaders, totalCount } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const USERS_PAGE_SIZE = 10;

export interface UsersParams {
  q: string;
  page: number;
}

/** `GET /api/admin/users?q&limit&offset`: one page of users and the total (`X-Total-Count`). */
export async function getUsers({ q, page }: UsersParams): Promise<{ users: AdminUser[]; total: number }> {
  const search = new URLSearchParams({ limit: String(USERS_PAGE_SIZE), offset: String((page - 1) * USERS_PAGE_SIZE) });
  if (q.trim()) search.set('q', q.trim());
  const { data, headers } = await apiRequestWithHeaders(`/api/admin/users?${search}`);
  const users = z.array(adminUserSchema).parse(data);
  return { users, total: totalCount(headers, users.length) };
}

export function useUsers(params: UsersParams) {
  return useQuery({ queryKey: adminKeys.users(params), queryFn: () => getUsers(params), placeholderData: keepPreviousData });
}
