import type { Access } from './guards';

/** Pages that later issues build; until then each shows its title and what will be there. */
export const PLACEHOLDER_ROUTES: ReadonlyArray<{ path: string; access: Access; title: string; description: string }> = [
  {
    path: '/inbox',
    access: 'public',
    title: 'Inbox',
    description: 'Your notifications: server events, promotions and messages from the team.',
  },
  {
    path: '/stats',
    access: 'server_owner',
    title: 'Stats',
    description: 'Views, joins and likes of your servers over time, and push promotions to players.',
  },
  {
    path: '/testimonials',
    access: 'server_owner',
    title: 'Testimonials',
    description: 'What server owners say about RP Servers, and a place to add yours.',
  },
  {
    path: '/admin',
    access: 'admin',
    title: 'Admin Dashboard',
    description: 'Users, servers, revenue, popular filters and feature toggles.',
  },
  { path: '/admin/email', access: 'admin', title: 'Send Mass Email', description: 'Write one e-mail to all server owners or all players.' },
];
