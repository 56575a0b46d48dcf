import type { Access } from './guards';

/** Pages that later issues build; until then each shows its title and what will be there. */
export const PLACEHOLDER_ROUTES: ReadonlyArray<{ path: string; access: Access; title: string; description: string }> = [
  {
    path: '/home',
    access: 'public',
    title: 'Home',
    description: 'Just-joined servers of the last 24 hours, the Server of the Weekend and the top 10 servers by likes.',
  },
  {
    path: '/search',
    access: 'public',
    title: 'Search Servers',
    description: 'Search servers by name and narrow them down with category filters.',
  },
  {
    path: '/list',
    access: 'public',
    title: 'Hot & Popular',
    description: 'The 10 most recently boosted servers and the 10 most popular ones, in two tabs.',
  },
  {
    path: '/inbox',
    access: 'public',
    title: 'Inbox',
    description: 'Your notifications: server events, promotions and messages from the team.',
  },
  {
    path: '/servers/:id',
    access: 'public',
    title: 'Server',
    description: 'The server’s page: banner, gallery, description, reviews, and buttons to join, like and boost.',
  },
  { path: '/subscriptions', access: 'public', title: 'Plans', description: 'What Pro and Premium give server owners, and what they cost.' },
  {
    path: '/profile',
    access: 'user',
    title: 'Your profile',
    description: 'Your display name and picture, and the servers you joined, liked and boosted.',
  },
  { path: '/checkout/:id', access: 'user', title: 'Checkout', description: 'What you are buying, with Pay and Cancel buttons.' },
  { path: '/dashboard', access: 'server_owner', title: 'Dashboard', description: 'Manage and customise your server pages.' },
  {
    path: '/dashboard/:id',
    access: 'server_owner',
    title: 'Manage server',
    description: 'Customise this server: name, status, bio, colours, images and filters.',
  },
  {
    path: '/stats',
    access: 'server_owner',
    title: 'Stats',
    description: 'Views, joins and likes of your servers over time, and push promotions to players.',
  },
  {
    path: '/payments',
    access: 'server_owner',
    title: 'Payments',
    description: 'Your subscription, boost packages, Server of the Weekend and payment history.',
  },
  {
    path: '/testimonials',
    access: 'server_owner',
    title: 'Testimonials',
    description: 'What server owners say about RP Servers, and a place to add yours.',
  },
  {
    path: '/quick-create',
    access: 'server_owner',
    title: 'Create your server',
    description: 'Name your first server and give it a status message to get listed in seconds.',
  },
  {
    path: '/admin',
    access: 'admin',
    title: 'Admin Dashboard',
    description: 'Users, servers, revenue, popular filters and feature toggles.',
  },
  { path: '/admin/email', access: 'admin', title: 'Send Mass Email', description: 'Write one e-mail to all server owners or all players.' },
];
