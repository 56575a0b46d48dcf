import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from '../components/app-layout';
import { AdminPage, EmailPage, MaintenanceBanner } from '../features/admin';
import { LoginPage, RegisterPage, UpdateEmailPage } from '../features/auth';
import { LandingPage } from '../features/landing';
import { InboxPage } from '../features/notifications';
import { CheckoutPage, PaymentsPage, SubscriptionsPage } from '../features/payments';
import { ProfilePage } from '../features/players';
import { DashboardPage, HomePage, ListPage, QuickCreatePage, SearchPage, ServerPage } from '../features/servers';
import { StatsPage } from '../features/stats';
import { TestimonialsPage, TestimonialsSection } from '../features/testimonials';
import { UnsubscribePage } from '../features/unsubscribe';
import { RequireAccess, type Access } from './guards';

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
  { path: '/subscriptions', access: 'public', element: <SubscriptionsPage testimonials={<TestimonialsSection />} /> },
  { path: '/checkout/:id', access: 'user', element: <CheckoutPage /> },
  { path: '/inbox', access: 'public', element: <InboxPage /> },
  { path: '/unsubscribe', access: 'public', element: <UnsubscribePage /> },
  { path: '/stats', access: 'server_owner', element: <StatsPage /> },
  { path: '/testimonials', access: 'server_owner', element: <TestimonialsPage /> },
  { path: '/admin', access: 'admin', element: <AdminPage /> },
  { path: '/admin/email', access: 'admin', element: <EmailPage /> },
];

/** Groups pages by access so each guard wraps its routes once: every route and its guard, in one place. */
function routesFor(access: Access): RouteObject[] {
  return pages.filter((p) => p.access === access).map(({ path, element }) => ({ path, element }));
}

export const routes: RouteObject[] = [
  {
    element: <AppLayout banner={<MaintenanceBanner />} />,
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
