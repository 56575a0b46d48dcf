import type { UserRow } from '../../db/schema';
import type { Payment, Subscription } from '../../../shared/schemas/payments';
import type { PaymentsRepository } from './payments.repository';
import type { SubscriptionsRepository } from './subscriptions.repository';

interface Deps {
  payments: Pick<PaymentsRepository, 'historyOf'>;
  subscriptions: Pick<SubscriptionsRepository, 'newestLiveOf'>;
}

/** The payments page's reads: the caller's plan and payment history. */
export function paymentsService({ payments, subscriptions }: Deps) {
  return {
    /** The caller's plan, with the state and period end of the subscription that gives it. */
    async subscriptionOf(user: UserRow): Promise<Subscription> {
      const live = await subscriptions.newestLiveOf(user.id);
      return {
        plan: user.subscriptionPlan,
        status: live?.status ?? (user.subscriptionPlan ? 'active' : 'none'),
        currentPeriodEnd: live?.currentPeriodEnd ? live.currentPeriodEnd.toISOString() : null,
      };
    },

    /** A page of the caller's payments, newest first, and how many there are in all. */
    historyOf: (user: UserRow, limit: number, offset: number): Promise<{ rows: Payment[]; total: number }> =>
      payments.historyOf(user.id, limit, offset),
  };
}

export type PaymentsService = ReturnType<typeof paymentsService>;
