import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { LIMITS } from '../../../../shared/limits';
import { parsePlayerBound, SORTS, type Sort } from '../../../../shared/schemas/server';
import type { ListServersParams } from '../api/list-servers';

export interface SearchQuery {
  q: string;
  filters: string[];
  sort: Sort;
  /** Only servers the game says are online now. */
  online: boolean;
  /** Only online servers with a free slot. */
  freeSlots: boolean;
  /** Players online now, inclusive; undefined: no bound. */
  minPlayers: number | undefined;
  maxPlayers: number | undefined;
  /** 1-based. */
  page: number;
}

/** Results a page of the search shows. */
export const SEARCH_PAGE_SIZE = LIMITS.listDefault;

/** The query string's names the search reads (`lang` and the like are not the search's). */
export const SEARCH_PARAMS = ['q', 'filters', 'sort', 'online', 'freeSlots', 'minPlayers', 'maxPlayers', 'page'] as const;

/** A bound from the URL; one that is not a count is ignored. */
const bound = (value: string | null): number | undefined => parsePlayerBound(value) ?? undefined;

const DEFAULT_SORT: Sort = 'likes';

/** The query a URL's parameters say. */
export function searchQueryOf(params: URLSearchParams): SearchQuery {
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    q: params.get('q') ?? '',
    filters: (params.get('filters') ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean),
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as Sort) : DEFAULT_SORT,
    online: params.get('online') === '1',
    freeSlots: params.get('freeSlots') === '1',
    minPlayers: bound(params.get('minPlayers')),
    maxPlayers: bound(params.get('maxPlayers')),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/**
 * The /search query lives in the URL (`?q=&filters=a,b&sort=&online=1&freeSlots=1&minPlayers=&maxPlayers=&page=`),
 * so a search can be shared and Back returns to the previous one. Every change pushes a history
 * entry, except with `replace` (typing: one entry per search, not per letter); a new query goes
 * back to page 1. A change applies to the URL as it is when it is made, not as it was when the
 * page last drew: two quick clicks (Clear all, then Online now) must not bring the cleared search back.
 */
export function useSearchQuery(): [SearchQuery, (change: Partial<SearchQuery>, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => searchQueryOf(params), [params]);

  const update = useCallback(
    (change: Partial<SearchQuery>, options?: { replace?: boolean }) => {
      const current = typeof window === 'undefined' ? query : searchQueryOf(new URLSearchParams(window.location.search));
      const next = { ...current, page: 1, ...change };
      const out = new URLSearchParams();
      if (next.q.trim()) out.set('q', next.q.trim());
      if (next.filters.length) out.set('filters', next.filters.join(','));
      if (next.sort !== DEFAULT_SORT) out.set('sort', next.sort);
      if (next.online) out.set('online', '1');
      if (next.freeSlots) out.set('freeSlots', '1');
      if (next.minPlayers !== undefined) out.set('minPlayers', String(next.minPlayers));
      if (next.maxPlayers !== undefined) out.set('maxPlayers', String(next.maxPlayers));
      if (next.page > 1) out.set('page', String(next.page));
      setParams(out, { replace: options?.replace ?? false });
    },
    [query, setParams],
  );
  return [query, update];
}

/**
 * The server list a search asks for: the page's hook and the server's rendering of `/search` ask
 * for the same one (docs/decisions/042-server-rendered-pages.md).
 */
export function searchListParams(query: SearchQuery): ListServersParams {
  return {
    q: query.q,
    filters: query.filters,
    sort: query.sort,
    limit: SEARCH_PAGE_SIZE,
    offset: (query.page - 1) * SEARCH_PAGE_SIZE,
    online: query.online,
    freeSlots: query.freeSlots,
    minPlayers: query.minPlayers,
    maxPlayers: query.maxPlayers,
  };
}
