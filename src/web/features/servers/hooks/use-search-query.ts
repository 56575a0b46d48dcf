import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { SORTS, type Sort } from '../../../../shared/schemas/server';

export interface SearchQuery {
  q: string;
  filters: string[];
  sort: Sort;
  /** 1-based. */
  page: number;
}

const DEFAULT_SORT: Sort = 'likes';

/**
 * The /search query lives in the URL (`?q=&filters=a,b&sort=&page=`), so a search can be shared
 * and Back returns to the previous one. Every change pushes a history entry; a new query goes back
 * to page 1.
 */
export function useSearchQuery(): [SearchQuery, (change: Partial<SearchQuery>) => void] {
  const [params, setParams] = useSearchParams();
  const query = useMemo<SearchQuery>(() => {
    const sort = params.get('sort');
    const page = Number(params.get('page'));
    return {
      q: params.get('q') ?? '',
      filters: (params.get('filters') ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
      sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as Sort) : DEFAULT_SORT,
      page: Number.isInteger(page) && page > 0 ? page : 1,
    };
  }, [params]);

  const update = useCallback(
    (change: Partial<SearchQuery>) => {
      const next = { ...query, page: 1, ...change };
      const out = new URLSearchParams();
      if (next.q.trim()) out.set('q', next.q.trim());
      if (next.filters.length) out.set('filters', next.filters.join(','));
      if (next.sort !== DEFAULT_SORT) out.set('sort', next.sort);
      if (next.page > 1) out.set('page', String(next.page));
      setParams(out);
    },
    [query, setParams],
  );
  return [query, update];
}
