import { matchPath } from 'react-router';
import type { PageQuery } from '../lib/page-query';
import { playerHistoryQuery } from '../features/game-status/api/get-player-history';
import { filterCategoriesQuery } from '../features/servers/api/get-filter-categories';
import { justJoinedQuery } from '../features/servers/api/get-just-joined';
import { serverQuery } from '../features/servers/api/get-server';
import { weekendQuery } from '../features/servers/api/get-server-of-the-weekend';
import { HOME_TOP, serverListQuery } from '../features/servers/api/list-servers';

/**
 * The public pages the server renders, and the queries each waits for before it draws more than
 * its skeleton: the server renders the page from their answers and the app starts from the same
 * ones (docs/decisions/042-server-rendered-pages.md). Each list must be exactly what the page's
 * hooks ask for, or the app would draw a skeleton over the rendered page.
 */
export const RENDERED_PAGES = {
  '/home': () => [justJoinedQuery, serverListQuery(HOME_TOP), weekendQuery],
  '/servers/:id': ({ id = '' }) => [serverQuery(id), playerHistoryQuery(id, '24h'), filterCategoriesQuery],
} satisfies Record<string, (params: Record<string, string | undefined>) => PageQuery[]>;

export type RenderedPath = keyof typeof RENDERED_PAGES;

/** The rendered page at `pathname`, with its queries; `null` for every other path. */
export function matchRenderedPage(pathname: string): { path: RenderedPath; queries: PageQuery[] } | null {
  for (const path of Object.keys(RENDERED_PAGES) as RenderedPath[]) {
    const match = matchPath(path, pathname);
    if (match) return { path, queries: RENDERED_PAGES[path](match.params) };
  }
  return null;
}
