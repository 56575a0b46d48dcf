import { useMutation } from '@tanstack/react-query';
import { createCheckoutSession, goToCheckout } from '../../../lib/checkout';

/** The body of `boostPackageBodySchema` (src/shared), plus where to come back to. */
export interface BoostPackageInput {
  serverId: string;
  amount: number;
  returnPath?: string;
}

/**
 * `POST /api/boost-session {serverId, amount, returnPath?}` → the checkout url. `amount` is the
 * package's number of boosts; the server decides the price (Premium pays 25 % less).
 */
export function createBoostSession(input: BoostPackageInput): Promise<string> {
  return createCheckoutSession('/api/boost-session', input);
}

export function useBoostSession() {
  return useMutation({ mutationFn: createBoostSession, onSuccess: goToCheckout });
}
