import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from '../components/app-layout';
import { PlaceholderPage } from '../components/placeholder-page';
import { LandingPage } from '../features/landing/components/landing-page';
import { LoginPage } from '../features/auth/components/login-page';
import { RegisterPage } from '../features/auth/components/register-page';
import { UpdateEmailPage } from '../features/auth/components/update-email-page';
import { HomePage } from '../features/servers/components/home-page';
import { SearchPage } from '../features/servers/components/search-page';
import { ListPage } from '../features/servers/components/list-page';
import { ServerPage } from '../features/servers/components/server-page';
import { QuickCreatePage } from '../features/servers/components/quick-create-page';
import { DashboardPage } from '../features/servers/components/dashboard-page';
import { ProfilePage } from '../features/players/components/profile-page';
import { PaymentsPage } from '../features/payments/components/payments-page';
import { SubscriptionsPage } from '../features/payments/components/subscriptions-page';
import { CheckoutPage } from '../features/payments/components/checkout-page';
import { RequireAccess, type Access } from './guards';
import { PLACEHOLDER_ROUTES } from './placeholders';

const pages: Array<{ path: string; access: Access; element: ReactNode }> = [
  { path: '/', access: 'public', element: <LandingPage /> },
  { path: '/login', access: 'public', element: <LoginPage /> },
  { path: '/register', access: 'public', element: <RegisterPage /> },
  { path: '/update-email', access: 'user', element: <UpdateEmailPage /> },
  { path: '/home', access: 'public', element: <HomePage /> },
  { path: '/search', access: 'public', element: <SearchPage /> },
  { path: '/list', access: 'public', element: <ListPage /> },
  { path: '/servers/:id', access: 'public', element: <ServerPage /> },
  { path: '/profile', access: 'user', element: <ProfilePage /> },
  { path: '/quick-create', access: 'server_owner', element: <QuickCreatePage /> },
  { path: '/dashboard', access: 'server_owner', element: <DashboardPage /> },
  { path: '/dashboard/:id', access: 'server_owner', element: <DashboardPage /> },
  { path: '/payments', access: 'server_owner', element: <PaymentsPage /> },
  { path: '/subscriptions', access: 'public', element: <SubscriptionsPage /> },
  { path: '/checkout/:id', access: 'user', element: <CheckoutPage /> },
  ...PLACEHOLDER_ROUTES.map((p) => ({ ...p, element: <PlaceholderPage title={p.title} description={p.description} /> })),
];

/** Groups pages by access so each guard wraps its routes once: every route and its guard, in one place. */
function routesFor(access: Access): RouteObject[] {
  return pages.filter((p) => p.access === access).map(({ path, element }) => ({ path, element }));
}

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      ...routesFor('public'),
      { element: <RequireAccess access="user" />, children: routesFor('user') },
      { element: <RequireAccess access="server_owner" />, children: routesFor('server_owner') },
      { element: <RequireAccess access="admin" />, children: routesFor('admin') },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
