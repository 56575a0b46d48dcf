import { renderToStaticMarkup } from 'react-dom/server';
import type { I18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StaticRouter } from 'react-router';
import { PageFrame } from '../components/page-frame';
import { PageLoading } from '../components/page-loading';

/**
 * The app's frame as it looks while its scripts load, rendered at build time into `index.html`:
 * navigation, the page's loading state and the footer paint from the HTML, and the app renders over
 * them when it starts. Who is signed in is on the device, so the account buttons wait for the app.
 * See docs/decisions/037-landing-page-without-the-app.md.
 */
export function renderAppFrame(i18n: I18n): string {
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        {/* No path is "current" in the frame: it is every page's. */}
        <StaticRouter location="/__frame">
          <PageFrame account="unknown">
            <PageLoading />
          </PageFrame>
        </StaticRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}
