import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { Locale } from '../../shared/i18n/locales';
import type { PageAnswers, PageRenderer } from '../../shared/prerender';
import { AppProviders } from '../app/app';
import { matchRenderedPage } from '../app/page-data';
import { preloadRenderedPage, routes } from '../app/router';
import { nodeI18n } from '../i18n/node';
import { setFormatLocale } from '../i18n/runtime';
import { createQueryClient } from '../lib/query-client';

/**
 * The web build's page renderer, built for Node into dist/web-ssr/render.js (scripts/build-ssr.mjs)
 * and loaded by the server: the public pages people arrive on, rendered from the API answers the
 * server fetched, so they paint with their content before any script has run, and the app hydrates
 * them (docs/decisions/042-server-rendered-pages.md). The tree is the app's own (providers, routes,
 * layout), as a signed-out visitor sees it before the device says who is signed in.
 */
const handler = createStaticHandler(routes);

export const locationFor: PageRenderer['locationFor'] = (url) => matchRenderedPage(url)?.location ?? null;

export const requestsFor: PageRenderer['requestsFor'] = (location) =>
  matchRenderedPage(location)?.queries?.map((query) => query.path) ?? null;

export const renderPage: PageRenderer['renderPage'] = async (
  location: string,
  answers: PageAnswers,
  renderedAt: number,
  locale: Locale,
) => {
  const page = matchRenderedPage(location);
  if (!page?.queries) throw new Error(`${location} is not a server-rendered page`);
  const queries = page.queries;
  await preloadRenderedPage(page.path);
  const context = await handler.query(new Request(new URL(location, 'http://rendered.invalid')));
  if (context instanceof Response) throw new Error(`${location} answered a redirect or an error while rendering`);
  const i18n = await nodeI18n(locale);
  const queryClient = createQueryClient();
  try {
    for (const query of queries) {
      const answer = answers[query.path];
      if (!answer) throw new Error(`no answer for ${query.path}`);
      queryClient.setQueryData(query.key(''), query.parse(answer));
    }
    // Rendering is synchronous from here: no other page's language can change the formats under it.
    setFormatLocale(locale);
    return renderToString(
      <StrictMode>
        <AppProviders queryClient={queryClient} i18n={i18n} renderedAt={renderedAt}>
          <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
        </AppProviders>
      </StrictMode>,
    );
  } finally {
    // Drops the cache's garbage-collection timers, which would keep this render alive for minutes.
    queryClient.clear();
  }
};
