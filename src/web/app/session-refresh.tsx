import { useUser } from '../features/auth/api/get-user';

/** Revalidates the stored user with the server; a 401 there logs the user out (spec §4). */
export function SessionRefresh() {
  useUser();
  return null;
}
