import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { paymentSchema, type Payment } from '../../../../shared/schemas/payments';
import { apiRequestWithHeaders, totalCount } from '../../../lib/api-client';
import { paymentKeys } from './keys';

export const PAYMENTS_PAGE_SIZE = 10;

/** `GET /api/user/payments?limit&offset`: one page of the caller's payments, newest first, and the total. */
export async function getPayments(page: number): Promise<{ payments: Payment[]; total: number }> {
  const search = new URLSearchParams({ limit: String(PAYMENTS_PAGE_SIZE), offset: String((page - 1) * PAYMENTS_PAGE_SIZE) });
  const { data, headers } = await apiRequestWithHeaders(`/api/user/payments?${search}`);
  const payments = z.array(paymentSchema).parse(data);
  return { payments, total: totalCount(headers, payments.length) };
}

export function usePayments(page: number) {
  return useQuery({ queryKey: paymentKeys.history(page), queryFn: () => getPayments(page), placeholderData: keepPreviousData });
}
