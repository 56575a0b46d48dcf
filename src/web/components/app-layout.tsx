import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { PageFrame } from './page-frame';
import { RouteNotice } from './route-notice';
import { Skeleton } from './skeleton';
import { UpdateBanner } from './update-banner';

/** Shell of every page of the app: the page frame, content (a loading state while a page's code arrives), update banner. */
export function AppLayout({ banner }: { banner?: ReactNode }) {
  return (
    <PageFrame banner={banner} after={<UpdateBanner />}>
      <RouteNotice />
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </PageFrame>
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
