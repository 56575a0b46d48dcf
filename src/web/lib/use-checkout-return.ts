import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { CheckoutOutcome } from './checkout';

/**
 * Reads `?checkout=success|canceled` of a page the checkout returned to, once: the parameter is
 * dropped from the address (a reload must not announce it again) and, after a payment, every
 * query is refetched, the user too, so a new plan, boosts or weekend show at once.
 */
export function useCheckoutReturn(): { outcome: CheckoutOutcome | null; message: string | null; dismiss: () => void } {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const param = params.get('checkout');
  const fromUrl: CheckoutOutcome | null = param === 'success' || param === 'canceled' ? param : null;
  const stateMessage = checkoutMessageOf(location.state);
  const [outcome, setOutcome] = useState<CheckoutOutcome | null>(fromUrl);
  const [message, setMessage] = useState<string | null>(stateMessage);
  // Adjusting state to the address during render (not in an effect) avoids a second paint; the
  // message is kept since dropping the parameter also drops the navigation state.
  if (fromUrl && fromUrl !== outcome) setOutcome(fromUrl);
  if (fromUrl && stateMessage && stateMessage !== message) setMessage(stateMessage);

  useEffect(() => {
    if (!fromUrl) return;
    if (fromUrl === 'success') void queryClient.invalidateQueries();
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        next.delete('checkout');
        return next;
      },
      { replace: true },
    );
  }, [fromUrl, queryClient, setParams]);

  return { outcome, message, dismiss: () => setOutcome(null) };
}

/** Navigation state the built-in checkout passes along: a confirmation that names what was bought. */
export interface CheckoutReturnState {
  checkoutMessage: string;
}

function checkoutMessageOf(state: unknown): string | null {
  if (state && typeof state === 'object' && 'checkoutMessage' in state && typeof state.checkoutMessage === 'string') {
    return state.checkoutMessage;
  }
  return null;
}
