import { centsToDollars, PRICES } from '../../../../shared/limits';

export type PaidPlan = 'Pro' | 'Premium';

/** Monthly price of each plan in dollars, from the shared prices. */
export const PLAN_PRICES: Record<PaidPlan, number> = {
  Pro: centsToDollars(PRICES.proMonthlyCents),
  Premium: centsToDollars(PRICES.premiumMonthlyCents),
};

/** What each plan gives, as the plan cards list it. */
export const PLAN_FEATURES: Record<PaidPlan, readonly string[]> = {
  Pro: ['1 server page, fully customised', '2 push promotions a day', 'Analytics for your server'],
  Premium: [
    'Up to 3 server pages',
    `${PRICES.premiumNewServerBoostCredits} boost credits for every new server`,
    '4 push promotions a day',
    `${PRICES.premiumBoostDiscountPercent} % off every boost package, for good`,
    'Analytics for all your servers',
  ],
};
