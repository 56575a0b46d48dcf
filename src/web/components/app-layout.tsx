import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { PageFrame } from './page-frame';
import { RouteNotice } from './route-notice';
import { PageLoading } from './page-loading';
import { UpdateBanner } from './update-banner';
import { useHydrated } from '../lib/use-hydrated';

/** Shell of every page of the app: the page frame, content (a loading state while a page's code arrives), update banner. */
export function AppLayout({ banner }: { banner?: ReactNode }) {
  // A page rendered on the server has no account buttons (who is signed in is only on the device):
  // they join once the app has hydrated it.
  const hydrated = useHydrated();
  return (
    <PageFrame banner={banner} after={<UpdateBanner />} withAccount={hydrated}>
      <RouteNotice />
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </PageFrame>
  );
}
