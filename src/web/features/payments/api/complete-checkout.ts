import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

const answerSchema = z.object({ returnPath: z.string().optional() }).loose();

/** `POST /api/checkout/{id}/complete` → `{returnPath}`: pays a test checkout (fulfils once; again is harmless). */
export async function completeCheckout(id: string): Promise<string | undefined> {
  return answerSchema.parse(await apiRequest(`/api/checkout/${encodeURIComponent(id)}/complete`, { method: 'POST' })).returnPath;
}

export function useCompleteCheckout() {
  return useMutation({ mutationFn: completeCheckout });
}
