import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { testimonialSchema, type Testimonial } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';

export const testimonialKeys = { all: ['testimonials'] as const };

/** `GET /api/testimonials`: what owners say, newest first (public). */
export async function getTestimonials(): Promise<Testimonial[]> {
  return z.array(testimonialSchema).parse(await apiRequest('/api/testimonials'));
}

export function useTestimonials() {
  return useQuery({ queryKey: testimonialKeys.all, queryFn: getTestimonials });
}
