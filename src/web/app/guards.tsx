import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '../../shared/roles';
import type { RouteNoticeState } from '../components/route-notice';
import type { MessageId } from '../i18n/catalogs/index';
import { useSession } from '../lib/session';

/** Who may open a route: anyone, any logged-in user, or one role. */
export type Access = 'public' | 'user' | Role;

/** What a visitor of another role is told, by the role a route is for. */
const ONLY_FOR: Record<Role, MessageId> = {
  admin: 'common.route.onlyAdmins',
  server_owner: 'common.route.onlyOwners',
  player: 'common.route.onlyPlayers',
};

/**
 * The one route guard: not logged in on a protected route → /login; logged in with the wrong role
 * → /, with a notice that says why. Routes nest under it in `router.tsx`.
 */
export function RequireAccess({ access }: { access: Exclude<Access, 'public'> }) {
  const session = useSession();
  const { pathname } = useLocation();
  if (!session) return <Navigate to="/login" replace />;
  if (access !== 'user' && session.user.role !== access) {
    const state: RouteNoticeState = { routeNotice: { id: ONLY_FOR[access], path: pathname } };
    return <Navigate to="/" replace state={state} />;
  }
  return <Outlet />;
}

/** An address no page has: back to the start, told so. */
export function UnknownPath() {
  const { pathname } = useLocation();
  const state: RouteNoticeState = { routeNotice: { id: 'common.route.unknownPage', path: pathname } };
  return <Navigate to="/" replace state={state} />;
}
