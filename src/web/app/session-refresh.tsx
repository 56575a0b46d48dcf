import { useUser } from '../features/auth/api/get-user';

/** Revalidates the stored user with the server; a 401 there logs the user out, so a revoked session does not linger. */
export function SessionRefresh() {
  useUser();
  return null;
}
