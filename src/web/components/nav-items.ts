import type { Role } from '../../shared/roles';

export interface NavItem {
  to: string;
  label: string;
}

const common: NavItem[] = [
  { to: '/home', label: 'Home' },
  { to: '/search', label: 'Search Servers' },
  { to: '/list', label: 'Hot & Popular' },
  { to: '/inbox', label: 'Inbox' },
];
const owner: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/stats', label: 'Stats' },
  { to: '/payments', label: 'Payments' },
];
const admin: NavItem[] = [
  { to: '/admin', label: 'Admin Dashboard' },
  { to: '/admin/email', label: 'Send Mass Email' },
];

/** Every logged-in role has a profile. */
const profile: NavItem = { to: '/profile', label: 'Profile' };

/** The navigation bar's links for a role, each only to pages that role may open; `null` is a visitor. */
export function navItemsFor(role: Role | null): NavItem[] {
  if (role === 'server_owner') return [...common, ...owner, profile];
  if (role === 'admin') return [...common, ...admin, profile];
  if (role === 'player') return [...common, profile];
  return common;
}
