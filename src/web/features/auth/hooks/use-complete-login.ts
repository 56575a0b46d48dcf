import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { AuthResponse } from '../../../../shared/schemas/auth';
import { setSession } from '../../../lib/session';
import { postLoginPath } from './post-login-path';

/**
 * Stores the new session, forgets the previous user's cached data and applies the post-login
 * routing (`next`: the page a sign-in through Discord came back for).
 */
export function useCompleteLogin(): (auth: AuthResponse, options?: { next?: string | null }) => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async ({ user, token }: AuthResponse, { next }: { next?: string | null } = {}) => {
      queryClient.removeQueries({ queryKey: ['user'] });
      setSession({ user, token });
      navigate(await postLoginPath(user, { next }), { replace: true });
    },
    [navigate, queryClient],
  );
}
