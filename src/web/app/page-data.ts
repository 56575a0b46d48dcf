import { generatePath, matchPath } from 'react-router';
import type { PageQuery } from '../lib/page-query';
import { playerHistoryQuery } from '../features/game-status/api/get-player-history';
import { filterCategoriesQuery } from '../features/servers/api/get-filter-categories';
import { justJoinedQuery } from '../features/servers/api/get-just-joined';
import { serverQuery } from '../features/servers/api/get-server';
import { weekendQuery } from '../features/servers/api/get-server-of-the-weekend';
import { LIMITS } from '../../shared/limits';
import { HOME_TOP, serverListQuery } from '../features/servers/api/list-servers';
import { SEARCH_PARAMS, searchListParams, searchQueryOf } from '../features/servers/hooks/use-search-query';

/** A server id as the site writes it in its links: digits, no leading zero. */
const SERVER_ID = /^[1-9]\d{0,15}$/;

/**
 * The public pages the server renders, and the queries each waits for before it draws more than
 * its skeleton: the server renders the page from their answers and the app starts from the same
 * ones (docs/decisions/042-server-rendered-pages.md). Each list must be exactly what the page's
 * hooks ask for, or the app would draw a skeleton over the rendered page.
 */
export const RENDERED_PAGES = {
  '/home': { queries: () => [justJoinedQuery, serverListQuery(HOME_TOP), weekendQuery] },
  '/list': {
    // The tab is in the query string: Most Popular with `?tab=popular`, Hot with anything else.
    search: (search: URLSearchParams) => (search.get('tab') === 'popular' ? '?tab=popular' : ''),
    queries: (_params: Params, search: URLSearchParams) => [
      serverListQuery({ sort: search.get('tab') === 'popular' ? 'popular' : 'hot', limit: LIMITS.listTab }),
    ],
  },
  // Only the search as it opens (no words, filters or page in the address): a rendering per typed
  // search would be a cache entry each. A search with any of them is drawn by the app, under a
  // location of its own (the frame it gets is not the rendered `/search` kept under `/search`).
  '/search': {
    search: (search: URLSearchParams) => searchLocation(search),
    drawnByApp: (search: URLSearchParams) => searchLocation(search) !== '',
    queries: (_params: Params, search: URLSearchParams) => [
      serverListQuery(searchListParams(searchQueryOf(search))),
      filterCategoriesQuery,
    ],
  },
  '/servers/:id': {
    valid: ({ id = '' }: Params) => SERVER_ID.test(id),
    queries: ({ id = '' }: Params) => [serverQuery(id), playerHistoryQuery(id, '24h'), filterCategoriesQuery],
  },
} satisfies Record<string, RenderedPage>;

type Params = Record<string, string | undefined>;

interface RenderedPage {
  /** Whether the path's parameters are as the site writes them in its links. */
  valid?: (params: Params) => boolean;
  /** A location of the page that the app draws instead (its address names what only the app draws). */
  drawnByApp?: (search: URLSearchParams) => boolean;
  /** The part of the query string the page draws from, as the site writes it (`''` for none). */
  search?: (search: URLSearchParams) => string;
  queries: (params: Params, search: URLSearchParams) => PageQuery[];
}

export type RenderedPath = keyof typeof RENDERED_PAGES;

/** The search's own parameters in the address, in one order (`?q=…&sort=…`), or `''` for the search as it opens. */
function searchLocation(search: URLSearchParams): string {
  const own = new URLSearchParams();
  for (const name of SEARCH_PARAMS) for (const value of search.getAll(name)) own.append(name, value);
  const text = own.toString();
  return text ? `?${text}` : '';
}

/**
 * The rendered page at `url` (a path with its query string): its route, its canonical location
 * (the path and only the part of the query string the page draws from: the page's cache key) and
 * its queries, `null` where that location is drawn by the app instead (a search with words). `null`
 * for every other path, and for any spelling of a page but the one the site links to (other letter
 * case, a trailing slash, a padded id): each spelling would be a rendering and a cache entry of its own.
 */
export function matchRenderedPage(url: string): { path: RenderedPath; location: string; queries: PageQuery[] | null } | null {
  const at = url.indexOf('?');
  const pathname = at < 0 ? url : url.slice(0, at);
  const search = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
  for (const path of Object.keys(RENDERED_PAGES) as RenderedPath[]) {
    const match = matchPath({ path, caseSensitive: true, end: true }, pathname);
    if (!match) continue;
    const page: RenderedPage = RENDERED_PAGES[path];
    if (page.valid && !page.valid(match.params)) return null;
    if (generatePath(path, match.params as never) !== pathname) return null;
    const location = pathname + (page.search?.(search) ?? '');
    return { path, location, queries: page.drawnByApp?.(search) ? null : page.queries(match.params, search) };
  }
  return null;
}
