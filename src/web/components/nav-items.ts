import type { Role } from '../../shared/roles';
import type { MessageId } from '../i18n/catalogs/index';

export interface NavItem {
  to: string;
  /** The link's text, translated where it is drawn. */
  label: MessageId;
}

const common: NavItem[] = [
  { to: '/home', label: 'common.nav.home' },
  { to: '/search', label: 'common.nav.search' },
  { to: '/list', label: 'common.nav.hot' },
  { to: '/inbox', label: 'common.nav.inbox' },
];
const owner: NavItem[] = [
  { to: '/dashboard', label: 'common.nav.dashboard' },
  { to: '/stats', label: 'common.nav.stats' },
  { to: '/payments', label: 'common.nav.payments' },
];
const admin: NavItem[] = [
  { to: '/admin', label: 'common.nav.adminDashboard' },
  { to: '/admin/email', label: 'common.nav.massEmail' },
];

/** Every logged-in role has a profile. */
const profile: NavItem = { to: '/profile', label: 'common.nav.profile' };

/** The navigation bar's links for a role, each only to pages that role may open; `null` is a visitor. */
export function navItemsFor(role: Role | null): NavItem[] {
  if (role === 'server_owner') return [...common, ...owner, profile];
  if (role === 'admin') return [...common, ...admin, profile];
  if (role === 'player') return [...common, profile];
  return common;
}
