import type { User } from '../../../../shared/schemas/auth';
import { safeReturnPath } from '../../../../shared/return-path';
import { getOwnServers } from '../../servers';

/**
 * The return path the server gives a sign-in started without one (through Discord): it says
 * nothing about where this user wants to be, so the usual landing applies.
 */
const NO_PREFERENCE = '/home';
// Going back to a sign-in page after signing in would only show the form again.
const SIGN_IN_PAGES = /^\/(login|register|update-email)(\?|$)/;

/**
 * Where a user goes after logging in: no e-mail → /update-email; then `next` (the page a sign-in
 * through Discord came back for) when it is a page on this site; else owner with a server →
 * /dashboard, without → /quick-create; admin → /admin; player → /profile. `emailPending`: an
 * address waits for its confirmation link, so the user goes on without one for now.
 */
export async function postLoginPath(
  user: User,
  { emailPending = false, next }: { emailPending?: boolean; next?: string | null } = {},
): Promise<string> {
  if (!user.email && !emailPending) return '/update-email';
  const back = safeReturnPath(next, NO_PREFERENCE);
  if (back !== NO_PREFERENCE && !SIGN_IN_PAGES.test(back)) return back;
  switch (user.role) {
    case 'admin':
      return '/admin';
    case 'server_owner':
      try {
        return (await getOwnServers()).length > 0 ? '/dashboard' : '/quick-create';
      } catch (error) {
        // Not knowing is treated like having none: /quick-create is where an owner can start.
        console.warn('could not load the owner’s servers', error);
        return '/quick-create';
      }
    default:
      return '/profile';
  }
}
