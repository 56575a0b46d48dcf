import type { ListServersQuery } from '../../../shared/schemas/server';
import type { ListOptions } from './servers.repository';

/** What the repository and the search index take for a list request, filters already resolved to ids. */
export function listOptions(query: ListServersQuery, filterIds: number[]): ListOptions & { filterIds: number[] } {
  return {
    q: query.q,
    filterIds,
    sort: query.sort,
    limit: query.limit,
    offset: query.offset,
    online: query.online,
    freeSlots: query.freeSlots,
    minPlayers: query.minPlayers,
    maxPlayers: query.maxPlayers,
  };
}

/** The cache key of a list: equal for requests that must get the same page (filter order and case of `q` aside). */
export function listKey(options: ListOptions & { filterIds: number[] }): string {
  return JSON.stringify({ ...options, filterIds: [...options.filterIds].sort((a, b) => a - b), q: options.q?.toLowerCase() });
}
