import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { testimonialKeys } from './get-testimonials';

/** `POST /api/testimonials {content}` (owners, one each). */
export async function createTestimonial(content: string): Promise<unknown> {
  return apiRequest('/api/testimonials', { method: 'POST', body: { content } });
}

export function useCreateTestimonial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTestimonial,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: testimonialKeys.all }),
  });
}
