import { useQuery } from '@tanstack/react-query';
import { checkoutSessionSchema, type CheckoutSession } from '../../../../shared/schemas/payments';
import { apiRequest } from '../../../lib/api-client';
import { paymentKeys } from './keys';

/** `GET /api/checkout/{id}`: what the built-in test checkout sells (only the buyer can read it). */
export async function getCheckout(id: string): Promise<CheckoutSession> {
  return checkoutSessionSchema.parse(await apiRequest(`/api/checkout/${encodeURIComponent(id)}`));
}

export function useCheckout(id: string) {
  return useQuery({ queryKey: paymentKeys.checkout(id), queryFn: () => getCheckout(id), enabled: id !== '' });
}
