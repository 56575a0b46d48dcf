import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { AppStarted } from '../lib/app-started';
import { PageFrame } from './page-frame';
import { RouteNotice } from './route-notice';
import { PageLoading } from './page-loading';
import { UpdateBanner } from './update-banner';

/** Shell of every page of the app: the page frame, content (a loading state while a page's code arrives), update banner. */
export function AppLayout({ banner }: { banner?: ReactNode }) {
  return (
    <PageFrame banner={banner} after={<UpdateBanner />}>
      <RouteNotice />
      <Suspense fallback={<PageLoading />}>
        <Outlet />
        <AppStarted />
      </Suspense>
    </PageFrame>
  );
}
