import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { NavBar } from './nav-bar';
import { RouteNotice } from './route-notice';
import { Skeleton } from './skeleton';
import { SiteFooter } from './site-footer';
import { UpdateBanner } from './update-banner';

/** Shell of every page: skip link, navigation, an optional site-wide banner, content (a loading state while a page's code arrives), footer, update banner. */
export function AppLayout({ banner }: { banner?: ReactNode }) {
  return (
    <div className="glow-bg flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-3 focus:top-3 focus:z-50 focus:rounded-lg focus:bg-white focus:px-3 focus:py-2 focus:text-ink-950"
      >
        Skip to content
      </a>
      <NavBar />
      {banner}
      <main id="main" className="flex flex-1 flex-col">
        <RouteNotice />
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <UpdateBanner />
    </div>
  );
}

/** What a page shows while its code loads (pages are loaded on first visit). */
function PageLoading() {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8" aria-busy="true">
      <p className="sr-only">Loading…</p>
      <Skeleton className="h-9 w-2/3 max-w-md" />
      <Skeleton className="mt-6 h-48 w-full" />
    </div>
  );
}
