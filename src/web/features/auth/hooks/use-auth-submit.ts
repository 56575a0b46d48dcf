import { useState } from 'react';
import type { AuthResponse } from '../../../../shared/schemas/auth';
import { errorText } from '../../../lib/api-client';
import { useCompleteLogin } from './use-complete-login';

/**
 * Runs a call that answers a session (login, register, sign-up with Discord), then stores it and routes on; keeps the
 * form busy until the routing is done, and turns a failure into the server's text or `fallback`.
 */
export function useAuthSubmit(setError: (message: string | null) => void) {
  const completeLogin = useCompleteLogin();
  const [finishing, setFinishing] = useState(false);
  const submit = async (call: () => Promise<AuthResponse>, fallback: string, options?: { next?: string | null }) => {
    setError(null);
    try {
      const auth = await call();
      setFinishing(true);
      await completeLogin(auth, options);
    } catch (err) {
      setFinishing(false);
      setError(errorText(err, fallback));
    }
  };
  return { submit, finishing };
}
