import { lazy, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from '../components/app-layout';
import { MaintenanceBanner } from '../features/admin/components/maintenance-banner';
import { LandingPage } from '../features/landing';
import { RequireAccess, UnknownPath, type Access } from './guards';
import type { RenderedPath } from './page-data';
import { ensureManageCatalog } from '../i18n/manage-catalog';

/**
 * A page loaded on first visit: each route's code is its own chunk, so a page downloads only the
 * shell and itself. `AppLayout` shows the loading state while a chunk arrives (see
 * docs/decisions/024-first-load.md; a first visit to `/` gets the landing page without the app:
 * docs/decisions/037-landing-page-without-the-app.md).
 */
function page<P extends object>(load: () => Promise<ComponentType<P>>, { manage = false }: { manage?: boolean } = {}) {
  let loaded: ComponentType<P> | undefined;
  // An owner's, payments' or admin's page brings its messages with it (docs/decisions/054-languages.md).
  const fetchPage = async () => (loaded ??= manage ? (await Promise.all([load(), ensureManageCatalog()]))[0] : await load());
  const Lazy = lazy(async () => ({ default: await fetchPage() }));
  /** Once {@link Page.preload} has resolved, the page renders at once instead of suspending. */
  function Page(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  Page.preload = fetchPage;
  return Page;
}

const LoginPage = page(async () => (await import('../features/auth/components/login-page')).LoginPage);
const RegisterPage = page(async () => (await import('../features/auth/components/register-page')).RegisterPage);
const UpdateEmailPage = page(async () => (await import('../features/auth/components/update-email-page')).UpdateEmailPage);
const HomePage = page(async () => (await import('../features/servers/components/home-page')).HomePage);
const SearchPage = page(async () => (await import('../features/servers/components/search-page')).SearchPage);
const ListPage = page(async () => (await import('../features/servers/components/list-page')).ListPage);
const ServerPage = page(async () => (await import('../features/servers/components/server-page')).ServerPage);
const ProfilePage = page(async () => (await import('../features/players/components/profile-page')).ProfilePage);
const QuickCreatePage = page(async () => (await import('../features/servers/components/quick-create-page')).QuickCreatePage, {
  manage: true,
});
const DashboardPage = page(async () => (await import('../features/servers/components/dashboard-page')).DashboardPage, { manage: true });
const PaymentsPage = page(async () => (await import('../features/payments/components/payments-page')).PaymentsPage, { manage: true });
const SubscriptionsPage = page(async () => (await import('../features/payments/components/subscriptions-page')).SubscriptionsPage, {
  manage: true,
});
const TestimonialsSection = page(
  async () => (await import('../features/testimonials/components/testimonials-section')).TestimonialsSection,
);
const CheckoutPage = page(async () => (await import('../features/payments/components/checkout-page')).CheckoutPage, { manage: true });
const InboxPage = page(async () => (await import('../features/notifications/components/inbox-page')).InboxPage);
const UnsubscribePage = page(async () => (await import('../features/unsubscribe/components/unsubscribe-page')).UnsubscribePage);
const StatsPage = page(async () => (await import('../features/stats/components/stats-page')).StatsPage, { manage: true });
const TestimonialsPage = page(async () => (await import('../features/testimonials/components/testimonials-page')).TestimonialsPage);
const AdminPage = page(async () => (await import('../features/admin/components/admin-page')).AdminPage, { manage: true });
const EmailPage = page(async () => (await import('../features/admin/components/email-page')).EmailPage, { manage: true });

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
      { path: '*', element: <UnknownPath /> },
    ],
  },
];

/**
 * Loads a server-rendered page's code before the app's first render, so the app draws the page at
 * once over the server's markup instead of its loading state (docs/decisions/042-server-rendered-pages.md).
 */
export function preloadRenderedPage(path: RenderedPath): Promise<unknown> {
  return { '/home': HomePage, '/list': ListPage, '/search': SearchPage, '/servers/:id': ServerPage }[path].preload();
}

export function createAppRouter() {
  return createBrowserRouter(routes);
}
