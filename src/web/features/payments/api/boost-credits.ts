import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  boostCreditBalancesSchema,
  spentBoostCreditsSchema,
  type BoostCreditBalances,
  type SpentBoostCredits,
} from '../../../../shared/schemas/payments';
import { apiRequest } from '../../../lib/api-client';
import { paymentKeys } from './keys';

/** `GET /api/user/boost-credits`: the unspent Premium boost credits of each of the caller's servers. */
export async function getBoostCredits(): Promise<BoostCreditBalances> {
  return boostCreditBalancesSchema.parse(await apiRequest('/api/user/boost-credits'));
}

export function useBoostCredits() {
  return useQuery({ queryKey: paymentKeys.boostCredits, queryFn: getBoostCredits });
}

/** The balance of one server (0 while loading or when it has none). */
export function creditsOf(balances: BoostCreditBalances | undefined, serverId: string): number {
  return balances?.find((b) => b.serverId === serverId)?.balance ?? 0;
}

/** `POST /api/boost-credits {serverId, amount}`: a package paid with credits; boosts count at once. */
export async function spendBoostCredits(input: { serverId: string; amount: number }): Promise<SpentBoostCredits> {
  return spentBoostCreditsSchema.parse(await apiRequest('/api/boost-credits', { method: 'POST', body: input }));
}

export function useSpendBoostCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: spendBoostCredits,
    onSuccess: () => {
      // The server's boosts changed: its page and the lists show them; the owner's own servers
      // and their balances (under `['user', 'servers']`) too.
      void queryClient.invalidateQueries({ queryKey: ['servers'] });
      void queryClient.invalidateQueries({ queryKey: ['user', 'servers'] });
    },
  });
}
