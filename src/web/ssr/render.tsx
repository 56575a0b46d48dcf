import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Routes, StaticRouter } from 'react-router';
import type { PageAnswers, PageRenderer } from '../../shared/prerender';
import { matchRenderedPage, type RenderedPath } from '../app/page-data';
import { PageFrame } from '../components/page-frame';
import { HomePage } from '../features/servers/components/home-page';
import { ServerPage } from '../features/servers/components/server-page';
import { createQueryClient } from '../lib/query-client';

/**
 * The web build's page renderer, built for Node into dist/web-ssr/render.js (scripts/build-ssr.mjs)
 * and loaded by the server: the public pages people arrive on, rendered from the API answers the
 * server fetched, so they paint with their content before any script has run
 * (docs/decisions/042-server-rendered-pages.md). Rendered as a signed-out visitor sees them, in
 * the app's frame without the account buttons (who is signed in is only known on the device).
 */
const PAGES: Record<RenderedPath, ComponentType> = { '/home': HomePage, '/servers/:id': ServerPage };

export const requestsFor: PageRenderer['requestsFor'] = (pathname) =>
  matchRenderedPage(pathname)?.queries.map((query) => query.path) ?? null;

export const renderPage: PageRenderer['renderPage'] = (pathname: string, answers: PageAnswers) => {
  const page = matchRenderedPage(pathname);
  if (!page) throw new Error(`${pathname} is not a server-rendered page`);
  const queryClient = createQueryClient();
  try {
    for (const query of page.queries) {
      const answer = answers[query.path];
      if (!answer) throw new Error(`no answer for ${query.path}`);
      queryClient.setQueryData(query.key(''), query.parse(answer));
    }
    const Page = PAGES[page.path];
    return renderToString(
      <QueryClientProvider client={queryClient}>
        <StaticRouter location={pathname}>
          <PageFrame withAccount={false}>
            <Routes>
              <Route path={page.path} element={<Page />} />
            </Routes>
          </PageFrame>
        </StaticRouter>
      </QueryClientProvider>,
    );
  } finally {
    // Drops the cache's garbage-collection timers, which would keep this render alive for minutes.
    queryClient.clear();
  }
};
