import { useQuery } from '@tanstack/react-query';
import { subscriptionSchema, type Subscription } from '../../../../shared/schemas/payments';
import { apiRequest } from '../../../lib/api-client';
import { getSession, updateSessionUser } from '../../../lib/session';
import { paymentKeys } from './keys';

/** The plan the server knows replaces the stored user's copy, so every page that checks the plan agrees with the server. */
export function writeBackPlan(plan: Subscription['plan']): void {
  const session = getSession();
  if (session && session.user.subscriptionPlan !== plan) updateSessionUser({ ...session.user, subscriptionPlan: plan });
}

/** `GET /api/user/subscription` → `{plan, status, currentPeriodEnd}`; the plan is written back to the session. */
export async function getSubscription(): Promise<Subscription> {
  const subscription = subscriptionSchema.parse(await apiRequest('/api/user/subscription'));
  writeBackPlan(subscription.plan);
  return subscription;
}

export function useSubscription() {
  return useQuery({ queryKey: paymentKeys.subscription, queryFn: getSubscription });
}
