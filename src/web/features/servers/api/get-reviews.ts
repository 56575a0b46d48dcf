import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { REVIEWS_FIRST_PAGE, reviewSchema, type Review } from '../../../../shared/schemas/server';
import { apiRequestWithHeaders, totalCount } from '../../../lib/api-client';
import { serverKeys } from './keys';

const PAGE = REVIEWS_FIRST_PAGE;

/** `GET /api/servers/{id}/reviews?offset&limit`: a page of reviews, newest first, and their total. */
export async function getReviews(id: string, offset: number, limit = PAGE): Promise<{ reviews: Review[]; total: number }> {
  const { data, headers } = await apiRequestWithHeaders(`/api/servers/${encodeURIComponent(id)}/reviews?offset=${offset}&limit=${limit}`);
  const reviews = z.array(reviewSchema).parse(data);
  return { reviews, total: totalCount(headers, offset + reviews.length) };
}

/**
 * The reviews after the first page that `GET /api/servers/{id}` embeds. Nothing is fetched until
 * `enabled` (the first "Load more"); then `fetchNextPage` pages on.
 */
export function useMoreReviews(id: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: serverKeys.reviews(id),
    queryFn: ({ pageParam }) => getReviews(id, pageParam),
    initialPageParam: PAGE,
    getNextPageParam: (last, _pages, offset) =>
      offset + last.reviews.length < last.total && last.reviews.length > 0 ? offset + PAGE : undefined,
    enabled,
  });
}
