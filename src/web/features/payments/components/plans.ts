import { centsToDollars, PRICES } from '../../../../shared/limits';
import type { MessageId } from '../../../i18n/catalogs/index';
import type { MessageValues, Translate } from '../../../i18n/use-t';

export type PaidPlan = 'Pro' | 'Premium';

/** The paid plans, cheapest first. */
export const PAID_PLANS: readonly PaidPlan[] = ['Pro', 'Premium'];

/** Monthly price of each plan in dollars, from the shared prices. */
export const PLAN_PRICES: Record<PaidPlan, number> = {
  Pro: centsToDollars(PRICES.proMonthlyCents),
  Premium: centsToDollars(PRICES.premiumMonthlyCents),
};

/** What each plan gives, as message ids with their values. */
const PLAN_FEATURES: Record<PaidPlan, ReadonlyArray<{ id: MessageId; values?: MessageValues }>> = {
  Pro: [{ id: 'payments.feature.pro.page' }, { id: 'payments.feature.pro.promotions' }, { id: 'payments.feature.pro.analytics' }],
  Premium: [
    { id: 'payments.feature.premium.pages' },
    { id: 'payments.feature.premium.credits', values: { count: PRICES.premiumNewServerBoostCredits } },
    { id: 'payments.feature.premium.promotions' },
    { id: 'payments.feature.premium.discount', values: { percent: PRICES.premiumBoostDiscountPercent } },
    { id: 'payments.feature.premium.analytics' },
  ],
};

/** What a plan gives, as the plan cards list it, in the page's language. */
export function planFeatures(plan: PaidPlan, t: Translate): string[] {
  return PLAN_FEATURES[plan].map(({ id, values }) => t(id, values));
}
