import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { StripeGateway } from '../../adapters/stripe';
import { BOOST_PACKAGES, PRICES, centsToDollars } from '../../../shared/limits';
import { MSG } from '../../../shared/messages';
import { normalizePlan } from '../../../shared/roles';
import { safeReturnPath } from '../../../shared/return-path';
import { boostPackageCents, type Quote } from '../../../shared/schemas/payments';
import { AppError, badRequest } from '../../errors';
import { paymentsPolicy } from '../../policies/payments.policy';
import type { SettingsService } from '../settings';
import type { CheckoutsRepository } from './checkouts.repository';
import type { CreditsRepository } from './credits.repository';
import type { SubscriptionsRepository } from './subscriptions.repository';
import type { FulfilmentService } from './fulfilment.service';
import { weekendCalendar } from './weekends';
import { describe } from './checkout.format';
import { checkoutOpener } from './open-checkout';
import { testCheckout } from './test-checkout';
import { targetServers } from './target-server';

interface Deps {
  checkouts: CheckoutsRepository;
  subscriptions: SubscriptionsRepository;
  credits: CreditsRepository;
  inTransaction: InTransaction;
  stripe: StripeGateway | undefined;
  fulfilment: FulfilmentService;
  settings: Pick<SettingsService, 'flag'>;
  publicUrl: string;
  now: () => Date;
  log: { error(obj: object, msg: string): void };
}

/**
 * Checkout sessions: the server decides every price and what is bought; the client only names a
 * plan, a server and a package. With Stripe keys the session is Stripe Checkout; without, the
 * built-in test checkout (docs/decisions/008-one-fulfilment-path.md).
 */
export function checkoutService(deps: Deps) {
  const { checkouts, subscriptions, credits, inTransaction, stripe, fulfilment, settings, publicUrl, now, log } = deps;
  const weekends = weekendCalendar(credits);
  const open = checkoutOpener({ checkouts, stripe, publicUrl, log });

  const { listed: server, owned: ownServer } = targetServers(checkouts);

  const assertBoosting = async () => paymentsPolicy.assertBoostingEnabled(await settings.flag('enableBoosting'));

  return {
    async subscribe(actor: UserRow, plan: 'Pro' | 'Premium', returnPath: string | undefined) {
      paymentsPolicy.assertCanSubscribe(actor, plan);
      const cents = plan === 'Pro' ? PRICES.proMonthlyCents : PRICES.premiumMonthlyCents;
      return open(actor, {
        kind: 'subscription',
        amountCents: cents,
        quantity: 1,
        serverId: null,
        plan,
        description: describe('subscription', 1, plan, null),
        returnPath: safeReturnPath(returnPath),
      });
    },

    async boostSingle(actor: UserRow, serverId: string, returnPath: string | undefined) {
      paymentsPolicy.assertIsPlayerBooster(actor);
      await assertBoosting();
      const target = await server(serverId);
      paymentsPolicy.assertCanBoost(actor, target);
      return open(actor, {
        kind: 'playerBoost',
        amountCents: PRICES.playerBoostCents,
        quantity: 1,
        serverId: target.id,
        plan: null,
        description: describe('playerBoost', 1, null, target.name),
        returnPath: safeReturnPath(returnPath ?? `/servers/${target.id}`),
      });
    },

    async boostPackage(actor: UserRow, serverId: string, boosts: number, returnPath: string | undefined) {
      const target = await ownServer(actor, serverId);
      await assertBoosting();
      const premium = normalizePlan(actor.subscriptionPlan) === 'Premium';
      return open(actor, {
        kind: 'ownerBoost',
        amountCents: boostPackageCents(boosts, premium),
        quantity: boosts,
        serverId: target.id,
        plan: null,
        description: describe('ownerBoost', boosts, null, target.name),
        returnPath: safeReturnPath(returnPath),
      });
    },

    async weekend(actor: UserRow, serverId: string, returnPath: string | undefined) {
      const target = await ownServer(actor, serverId);
      const offered = await weekends.nextFree(now());
      return open(actor, {
        kind: 'serverOfTheWeekend',
        amountCents: PRICES.weekendCents,
        quantity: 1,
        serverId: target.id,
        plan: null,
        description: `${describe('serverOfTheWeekend', 1, null, target.name)}, weekend of ${offered}`,
        returnPath: safeReturnPath(returnPath),
        weekendStart: offered,
      });
    },

    ...testCheckout({ checkouts, credits, weekends, fulfilment, stripeConfigured: Boolean(stripe), now }),

    /** Plan becomes none, here at once and at Stripe for a Stripe subscription. */
    async cancelSubscription(actor: UserRow): Promise<{ plan: '' }> {
      const live = await subscriptions.liveOf(actor.id);
      if (live.length === 0 && normalizePlan(actor.subscriptionPlan) === '') throw badRequest(MSG.noSubscription);
      for (const s of live) {
        if (s.stripeSubscriptionId && stripe) {
          try {
            await stripe.cancelSubscription(s.stripeSubscriptionId);
          } catch (error) {
            log.error({ err: error }, 'stripe subscription cancel failed');
            throw new AppError(502, MSG.cancelFailed);
          }
        }
      }
      await inTransaction(async (tx) => {
        await subscriptions.cancelLiveOf(actor.id, now(), tx);
        await fulfilment.refreshPlan(tx, actor.id);
      });
      return { plan: '' };
    },

    /** What the caller would pay now, for the payments page. */
    async quote(actor: UserRow): Promise<Quote> {
      const premium = normalizePlan(actor.subscriptionPlan) === 'Premium';
      return {
        premium,
        packages: BOOST_PACKAGES.map((p) => {
          const cents = boostPackageCents(p.boosts, premium);
          return { boosts: p.boosts, cents, amount: centsToDollars(cents), fullAmount: centsToDollars(p.cents) };
        }),
        playerBoost: centsToDollars(PRICES.playerBoostCents),
        weekend: { amount: centsToDollars(PRICES.weekendCents), nextFreeWeekend: await weekends.nextFree(now()) },
        plans: { Pro: centsToDollars(PRICES.proMonthlyCents), Premium: centsToDollars(PRICES.premiumMonthlyCents) },
        boostingEnabled: await settings.flag('enableBoosting'),
      };
    },
  };
}

export type CheckoutService = ReturnType<typeof checkoutService>;
