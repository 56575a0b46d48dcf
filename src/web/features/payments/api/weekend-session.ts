import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { weekendBodySchema } from '../../../../shared/schemas/payments';
import { createCheckoutSession, goToCheckout } from '../../../lib/checkout';

export type WeekendInput = z.infer<typeof weekendBodySchema> & { returnPath?: string };

/** `POST /api/weekend-session {serverId, returnPath?}` → the checkout url ($100, the next free weekend). */
export function createWeekendSession(input: WeekendInput): Promise<string> {
  return createCheckoutSession('/api/weekend-session', input);
}

export function useWeekendSession() {
  return useMutation({ mutationFn: createWeekendSession, onSuccess: goToCheckout });
}
