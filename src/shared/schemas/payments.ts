import { z } from 'zod';
import { BOOST_PACKAGES, PRICES } from '../limits';
import { MSG } from '../messages';
import { RETURN_PATH_MAX } from '../return-path';
import { pageQuery } from './common';

export const PAYMENT_TYPES = ['playerBoost', 'ownerBoost', 'subscription', 'serverOfTheWeekend'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** Every checkout call answers the page to send the browser to: Stripe Checkout or the test checkout. */
export const checkoutUrlSchema = z.object({ url: z.string() });

export const subscribeBodySchema = z.object({
  plan: z.enum(['Pro', 'Premium'], { error: MSG.selectPlan }),
});

export const boostSingleBodySchema = z.object({
  serverId: z.string({ error: MSG.selectServerToBoost }).min(1, MSG.selectServerToBoost),
});

/** `amount` is the number of boosts of a package (10, 25, 50, 200 or 1000). */
export const boostPackageBodySchema = z.object({
  serverId: z.string({ error: MSG.selectServerToBoost }).min(1, MSG.selectServerToBoost),
  amount: z.coerce
    .number({ error: MSG.selectBoostPackage })
    .refine((n) => BOOST_PACKAGES.some((p) => p.boosts === n), MSG.selectBoostPackage),
});

/** A `userId` in the body is ignored: the buyer is always the logged-in user, never one the client names. */
export const weekendBodySchema = z.object({
  serverId: z.string({ error: MSG.selectServer }).min(1, MSG.selectServer),
});

/** Where to send the browser after paying or canceling: a path on this site, checked by `safeReturnPath`. */
const returnPathShape = { returnPath: z.string().max(RETURN_PATH_MAX).optional() };

/** `POST /api/subscribe-session`. */
export const subscribeSessionBodySchema = subscribeBodySchema.extend(returnPathShape);

/** `POST /api/boost-single-session`. */
export const boostSingleSessionBodySchema = boostSingleBodySchema.extend(returnPathShape);

/** `POST /api/boost-session`. */
export const boostPackageSessionBodySchema = boostPackageBodySchema.extend(returnPathShape);

/** `POST /api/boost-credits`: a package paid with the server's boost credits instead of money. */
export const spendBoostCreditsBodySchema = boostPackageBodySchema;

/** What spending credits left: the server's balance and its boosts now. */
export const spentBoostCreditsSchema = z.object({
  serverId: z.string(),
  spent: z.number(),
  balance: z.number(),
  totalBoosts: z.number(),
});
export type SpentBoostCredits = z.infer<typeof spentBoostCreditsSchema>;

/** `GET /api/user/boost-credits`: the unspent boost credits of each of the caller's servers. */
export const boostCreditBalancesSchema = z.array(z.object({ serverId: z.string(), balance: z.number() }));
export type BoostCreditBalances = z.infer<typeof boostCreditBalancesSchema>;

/** `POST /api/weekend-session`. */
export const weekendSessionBodySchema = weekendBodySchema.extend(returnPathShape);

/** `/api/checkout/{id}`: a checkout session id (`cs_local_…` or Stripe's `cs_…`), not a row number. */
export const checkoutParamsSchema = z.object({ id: z.string() });

/** `POST /api/checkout/{id}/cancel`: where to return. */
export const cancelCheckoutSchema = z.object({ returnPath: z.string() });

/** `POST /api/cancel-subscription`: the plan is none from now on. */
export const cancelSubscriptionSchema = z.object({ plan: z.literal('') });

/** `GET /api/user/payments` paging; the total comes in the `x-total-count` header. */
export const paymentHistoryQuerySchema = z.object({
  ...pageQuery(100, 20),
});

/** Price of a boost package in cents; Premium pays `PRICES.premiumBoostDiscountPercent` less. */
export function boostPackageCents(boosts: number, premium: boolean): number {
  const pack = BOOST_PACKAGES.find((p) => p.boosts === boosts);
  if (!pack) throw new Error(`no boost package of ${boosts}`);
  return premium ? Math.round((pack.cents * (100 - PRICES.premiumBoostDiscountPercent)) / 100) : pack.cents;
}

/** A row of `GET /api/user/payments`: `amount` in dollars. */
export const paymentSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  type: z.enum(PAYMENT_TYPES),
  amount: z.number(),
  serverId: z.string().nullable(),
  serverName: z.string().nullable(),
  status: z.enum(['paid', 'refunded', 'disputed']),
});
export type Payment = z.infer<typeof paymentSchema>;

/** `GET /api/user/payments`: one page of the caller's payments, newest first. */
export const paymentHistorySchema = z.array(paymentSchema);

/** `GET /api/user/subscription`. */
export const subscriptionSchema = z.object({
  plan: z.enum(['', 'Pro', 'Premium']),
  status: z.enum(['active', 'past_due', 'canceled', 'none']),
  currentPeriodEnd: z.iso.datetime().nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/**
 * What the built-in test checkout page shows (docs/decisions/008-one-fulfilment-path.md):
 * `GET /api/checkout/{id}`.
 */
export const checkoutSessionSchema = z.object({
  id: z.string(),
  kind: z.enum(PAYMENT_TYPES),
  description: z.string(),
  amount: z.number(),
  status: z.enum(['open', 'complete', 'canceled', 'expired']),
  returnPath: z.string(),
  serverId: z.string().nullable(),
  /** Server of the Weekend: the booked weekend's Friday, or while open the one Pay would book now. */
  weekendStart: z.string().nullable(),
  /** Set when the booked weekend is not the one the checkout offered (it started or was taken). */
  notice: z.string().nullable(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** `POST /api/checkout/{id}/complete`: where to return, whether this call credited, and the weekend booked. */
export const completeCheckoutSchema = z.object({
  returnPath: z.string(),
  credited: z.boolean(),
  weekendStart: z.string().nullable(),
  notice: z.string().nullable(),
});
export type CompleteCheckout = z.infer<typeof completeCheckoutSchema>;

/** `GET /api/payments/quote`: what the caller would pay now, for the payments page. */
export const quoteSchema = z.object({
  premium: z.boolean(),
  packages: z.array(z.object({ boosts: z.number(), cents: z.number(), amount: z.number(), fullAmount: z.number() })),
  playerBoost: z.number(),
  weekend: z.object({ amount: z.number(), nextFreeWeekend: z.string() }),
  plans: z.object({ Pro: z.number(), Premium: z.number() }),
  boostingEnabled: z.boolean(),
});
export type Quote = z.infer<typeof quoteSchema>;
