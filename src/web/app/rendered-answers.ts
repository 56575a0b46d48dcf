import type { QueryClient } from '@tanstack/react-query';
import { PRERENDER_IDS, RENDERED_AT_ATTRIBUTE, type PageAnswers } from '../../shared/prerender';
import { fetchPageQuery } from '../lib/page-query';
import { getSession } from '../lib/session';
import { matchRenderedPage } from './page-data';
import { preloadRenderedPage } from './router';

/** How long a signed-in visitor's own answers are waited for before the app draws its loading state. */
const PERSONAL_WAIT_MS = 3000;

/** The longest a rendered page's answers wait, once the app has started, before they are refreshed. */
const IDLE_REFRESH_MS = 2000;

/** Runs `task` once the browser has nothing else to do, or within two seconds. */
function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: IDLE_REFRESH_MS });
  else setTimeout(task, IDLE_REFRESH_MS);
}

/**
 * The answers the server rendered this page from (a `<script type="application/json">`) and the
 * time it rendered it at, or `null`.
 */
function readAnswers(): { answers: PageAnswers; renderedAt: number } | null {
  const element = document.getElementById(PRERENDER_IDS.answers);
  if (!element?.textContent) return null;
  element.remove();
  const renderedAt = Number(element.getAttribute(RENDERED_AT_ATTRIBUTE));
  if (!Number.isFinite(renderedAt) || renderedAt <= 0) return null;
  try {
    return { answers: JSON.parse(element.textContent) as PageAnswers, renderedAt };
  } catch {
    return null;
  }
}

/** How a page the server rendered starts: whether the app may hydrate it, and what to do once it has. */
export interface RenderedStart {
  /** Every answer the page was rendered from is in the cache as the server had it. */
  hydrate: boolean;
  /** When the server rendered the page (ms since the epoch), when it is hydrated; else `null`. */
  renderedAt: number | null;
  /** To call once the app has drawn (committed) its first render. */
  started: () => void;
}

/**
 * Readies the app to draw a server-rendered page at once (docs/decisions/042-server-rendered-pages.md):
 * its code is loaded and its queries are in the cache, from the answers in the HTML (the anonymous
 * ones, refreshed from the API once the app has started and the browser is idle) or, for a
 * signed-in visitor's own answers, fetched while the rendered page stays on screen. Never fails:
 * whatever is missing the page loads as it would without them.
 */
export async function startFromRenderedAnswers(queryClient: QueryClient): Promise<RenderedStart> {
  const nothing: RenderedStart = { hydrate: false, renderedAt: null, started: () => {} };
  const read = readAnswers();
  const page = read && matchRenderedPage(window.location.pathname + window.location.search);
  if (!read || !page?.queries) return nothing;
  const queries = page.queries;
  const { answers, renderedAt } = read;
  const userId = getSession()?.user.id ?? '';
  const rendered = queries.filter((query) => answers[query.path] && !(query.personal && userId));
  const fetched = queries
    .filter((query) => !rendered.includes(query))
    .map((query) => queryClient.prefetchQuery({ queryKey: query.key(userId), queryFn: () => fetchPageQuery(query) }));
  // Refreshed once drawn, even if the visitor has left the page by then (so nothing shown stays
  // older than this visit, and the visitor's own view of a server counts).
  const refresh = () => {
    for (const query of rendered) {
      if (query.forSession) continue;
      void queryClient.invalidateQueries({ queryKey: query.key(userId), exact: true, refetchType: 'all' });
    }
  };
  const started = () => whenIdle(refresh);
  try {
    // The page's code, however long it takes: without it the page would suspend over its markup.
    await preloadRenderedPage(page.path);
    // The answers are parsed in a task of their own: with the entry's modules running before them
    // they made one long task on a slow phone.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Put in as fresh: not refetched as the page mounts, where a query fetching while it
    // subscribes makes React draw the whole page a second time, synchronously, right after
    // hydrating it.
    for (const query of rendered) queryClient.setQueryData(query.key(userId), query.parse(answers[query.path]!));
    // A signed-in visitor's own answers are waited for a while only; the page then shows its
    // loading state until they come.
    const waited = new Promise<void>((resolve) => setTimeout(resolve, PERSONAL_WAIT_MS));
    await Promise.race([Promise.all(fetched), waited]);
  } catch {
    // Drawn by the app instead of hydrated; the answers already put in are refreshed all the same.
    return { hydrate: false, renderedAt: null, started };
  }
  const hydrate = fetched.length === 0 && !userId;
  return { hydrate, renderedAt: hydrate ? renderedAt : null, started };
}
