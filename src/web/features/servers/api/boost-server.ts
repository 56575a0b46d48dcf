import { useMutation } from '@tanstack/react-query';
import { createCheckoutSession, goToCheckout } from '../../../lib/checkout';

/**
 * `POST /api/boost-single-session {serverId, returnPath}` → the checkout url of a player's $2 boost.
 * The boost is credited when the payment is confirmed, never on the way back (a return URL proves nothing).
 */
export function createBoostSingleSession(input: { serverId: string; returnPath: string }): Promise<string> {
  return createCheckoutSession('/api/boost-single-session', input);
}

export function useBoostServer() {
  return useMutation({ mutationFn: createBoostSingleSession, onSuccess: goToCheckout });
}
