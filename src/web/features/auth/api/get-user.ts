import { useQuery } from '@tanstack/react-query';
import { userSchema, type User } from '../../../../shared/schemas/auth';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { clearSession, updateSessionUser, useSession } from '../../../lib/session';

export const userQueryKey = ['user'] as const;

/**
 * `GET /api/user`. A 401 means the stored token is no longer valid: the session is cleared and
 * the app treats the user as logged out. A fresh user replaces the stored copy.
 */
export async function getUser(): Promise<User> {
  try {
    const user = userSchema.parse(await apiRequest('/api/user'));
    updateSessionUser(user);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) clearSession();
    throw error;
  }
}

/** Revalidates the stored user once per session start; only runs when a token is present. */
export function useUser() {
  const session = useSession();
  return useQuery({
    queryKey: [...userQueryKey, session?.token ?? ''],
    queryFn: getUser,
    enabled: session !== null,
    staleTime: 5 * 60_000,
  });
}
