import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from '../components/app-layout';
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
import { InboxPage } from '../features/notifications/components/inbox-page';
import { StatsPage } from '../features/stats/components/stats-page';
import { AdminPage } from '../features/admin/components/admin-page';
import { EmailPage } from '../features/admin/components/email-page';
import { MaintenanceBanner } from '../features/admin/components/maintenance-banner';
import { TestimonialsPage } from '../features/testimonials/components/testimonials-page';
import { TestimonialsSection } from '../features/testimonials/components/testimonials-section';
import { UnsubscribePage } from '../features/unsubscribe/components/unsubscribe-page';
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
