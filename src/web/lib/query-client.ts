import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** Shared react-query defaults: no retry on 4xx (it will not get better), one retry otherwise. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}
