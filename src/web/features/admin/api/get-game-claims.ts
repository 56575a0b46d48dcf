import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminClaimsSchema, CLAIM_FILTERS, type AdminClaims, type ClaimFilter } from '../../../../shared/schemas/game-status';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const CLAIMS_PAGE_SIZE = 10;

export interface ClaimsParams {
  status: ClaimFilter;
  page: number;
}

/** `GET /api/admin/game-claims?status&limit&offset`: one page of claims, newest first, and how many match. */
export async function getGameClaims({ status, page }: ClaimsParams, limit = CLAIMS_PAGE_SIZE): Promise<AdminClaims> {
  const search = new URLSearchParams({ status, limit: String(limit), offset: String((page - 1) * limit) });
  return adminClaimsSchema.parse(await apiRequest(`/api/admin/game-claims?${search}`));
}

export function useGameClaims(params: ClaimsParams) {
  return useQuery({ queryKey: adminKeys.claims(params), queryFn: () => getGameClaims(params), placeholderData: keepPreviousData });
}

/** How many claims each filter holds, for the tabs: the totals of one-row pages, asked together. */
export function useGameClaimCounts() {
  return useQuery({
    queryKey: adminKeys.claimCounts,
    queryFn: async (): Promise<Record<ClaimFilter, number>> => {
      const totals = await Promise.all(CLAIM_FILTERS.map(async (status) => (await getGameClaims({ status, page: 1 }, 1)).total));
      return Object.fromEntries(CLAIM_FILTERS.map((status, i) => [status, totals[i] ?? 0])) as Record<ClaimFilter, number>;
    },
  });
}
