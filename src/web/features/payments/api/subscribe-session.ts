import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { subscribeBodySchema } from '../../../../shared/schemas/payments';
import { createCheckoutSession, goToCheckout } from '../../../lib/checkout';

export type SubscribeInput = z.infer<typeof subscribeBodySchema> & { returnPath?: string };

/** `POST /api/subscribe-session {plan, returnPath?}` → the checkout url (owners; Pro or Premium, monthly). */
export function createSubscribeSession(input: SubscribeInput): Promise<string> {
  return createCheckoutSession('/api/subscribe-session', input);
}

/** Starts a subscription checkout and sends the browser there. */
export function useSubscribeSession() {
  return useMutation({ mutationFn: createSubscribeSession, onSuccess: goToCheckout });
}
