import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

const answerSchema = z.object({ returnPath: z.string().optional() }).loose();

/** `POST /api/checkout/{id}/cancel` → `{returnPath}`: nothing is bought. */
export async function cancelCheckout(id: string): Promise<string | undefined> {
  return answerSchema.parse(await apiRequest(`/api/checkout/${encodeURIComponent(id)}/cancel`, { method: 'POST' })).returnPath;
}

export function useCancelCheckout() {
  return useMutation({ mutationFn: cancelCheckout });
}
