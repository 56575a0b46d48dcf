import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '../../shared/roles';
import { useSession } from '../lib/session';

/** Who may open a route: anyone, any logged-in user, or one role. */
export type Access = 'public' | 'user' | Role;

/**
 * The one route guard: not logged in on a protected route → /login; logged in with the wrong role
 * → /, with a notice that says why. Routes nest under it in `router.tsx`.
 */
export function RequireAccess({ access }: { access: Exclude<Access, 'public'> }) {
  const session = useSession();
  const { pathname } = useLocation();
  if (!session) return <Navigate to="/login" replace />;
  if (access !== 'user' && session.user.role !== access) {
    const who = access === 'admin' ? 'admins' : access === 'server_owner' ? 'server owners' : 'players';
    return <Navigate to="/" replace state={{ routeNotice: `Only ${who} can open ${pathname}.` }} />;
  }
  return <Outlet />;
}

/** An address no page has: back to the start, told so. */
export function UnknownPath() {
  const { pathname } = useLocation();
  return <Navigate to="/" replace state={{ routeNotice: `That page does not exist: ${pathname}` }} />;
}
