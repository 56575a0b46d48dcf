import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authResponseSchema, type AuthResponse } from '../../../../shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';
import { setSession } from '../../../lib/session';
import { userQueryKey } from './get-user';

/**
 * `POST /api/users/set-password {newPassword}` → `{user, token}`: a first password for an account
 * made with Discord. The session it was asked with ends, so the answer carries a new one.
 */
export async function setPassword(newPassword: string): Promise<AuthResponse> {
  return authResponseSchema.parse(await apiRequest('/api/users/set-password', { method: 'POST', body: { newPassword } }));
}

/** Sets the password and stores the new session in place of the ended one. */
export function useSetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPassword,
    onSuccess: ({ user, token }) => {
      queryClient.removeQueries({ queryKey: userQueryKey });
      setSession({ user, token });
    },
  });
}
