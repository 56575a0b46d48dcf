import { useQuery } from '@tanstack/react-query';
import { quoteSchema, type Quote } from '../../../../shared/schemas/payments';
import { apiRequest } from '../../../lib/api-client';
import { paymentKeys } from './keys';

/** `GET /api/payments/quote`: what the caller would pay now (package prices, the next free weekend). */
export async function getQuote(): Promise<Quote> {
  return quoteSchema.parse(await apiRequest('/api/payments/quote'));
}

export function useQuote() {
  return useQuery({ queryKey: paymentKeys.quote, queryFn: getQuote });
}
