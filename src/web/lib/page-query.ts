import type { QueryKey } from '@tanstack/react-query';
import type { PageAnswer } from '../../shared/prerender';
import { apiAnswer } from './api-client';

/**
 * One query a page starts with, described so that the server can render the page from its answer
 * and the app can start from the same answer (docs/decisions/042-server-rendered-pages.md): the
 * hook's cache key, the API path, and how its answer becomes the cached value.
 */
export interface PageQuery<T = unknown> {
  /** The cache key; `userId` is `''` when nobody is signed in. */
  key: (userId: string) => QueryKey;
  path: string;
  parse: (answer: PageAnswer) => T;
  /** The answer depends on who asks: the anonymous one in the HTML is not a signed-in visitor's. */
  personal?: boolean;
  /** Kept for the session as the HTML had it: not asked for again once the app has started. */
  forSession?: boolean;
}

/** Fetches a page query's answer and parses it: the hooks' `queryFn`. */
export async function fetchPageQuery<T>(query: PageQuery<T>): Promise<T> {
  return query.parse(await apiAnswer(query.path));
}
