import type { User } from '../../../../shared/schemas/auth';
import { getOwnServers } from '../../servers';

/**
 * Where a user goes after logging in: no e-mail → /update-email; owner with a server →
 * /dashboard, without → /quick-create; admin → /admin; player → /profile. `emailPending`: an
 * address waits for its confirmation link, so the user goes on without one for now.
 */
export async function postLoginPath(user: User, { emailPending = false }: { emailPending?: boolean } = {}): Promise<string> {
  if (!user.email && !emailPending) return '/update-email';
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
