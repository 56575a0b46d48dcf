import { Navigate, Outlet } from 'react-router';
import type { Role } from '../../shared/roles';
import { useSession } from '../lib/session';

/** Who may open a route: anyone, any logged-in user, or one role. */
export type Access = 'public' | 'user' | Role;

/**
 * The one route guard: not logged in on a protected route → /login; logged in with the wrong role
 * → /. Routes nest under it in `router.tsx`.
 */
export function RequireAccess({ access }: { access: Exclude<Access, 'public'> }) {
  const session = useSession();
  if (!session) return <Navigate to="/login" replace />;
  if (access !== 'user' && session.user.role !== access) return <Navigate to="/" replace />;
  return <Outlet />;
}
