import { useMutation } from '@tanstack/react-query';
import { completeCheckoutSchema, type CompleteCheckout } from '../../../../shared/schemas/payments';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/checkout/{id}/complete`: pays a test checkout (fulfils once; again is harmless) and
 * answers where to return and, for a weekend, the one actually booked (with a notice if it moved).
 */
export async function completeCheckout(id: string): Promise<CompleteCheckout> {
  return completeCheckoutSchema.parse(await apiRequest(`/api/checkout/${encodeURIComponent(id)}/complete`, { method: 'POST' }));
}

export function useCompleteCheckout() {
  return useMutation({ mutationFn: completeCheckout });
}
