import type { CheckoutSessionsTable, ServerRow, UserRow } from '../db/schema';
import { MSG } from '../../shared/messages';
import { normalizePlan } from '../../shared/roles';
import { conflict, forbidden, notFound } from '../errors';
import { serverPolicy } from './servers.policy';

type Buyer = Pick<UserRow, 'id' | 'role' | 'subscriptionPlan'>;
type Owned = Pick<ServerRow, 'ownerId'>;
type TestCheckout = { userId: number; provider: CheckoutSessionsTable['provider']; status: 'open' | 'complete' | 'canceled' | 'expired' };

/** Who may buy what, for which server, and who may pay or see a checkout. */
export const paymentsPolicy = {
  /** Plans, boost packages and weekends are sold to server owners only. */
  assertIsOwnerBuyer(actor: Pick<UserRow, 'role'>): void {
    if (!serverPolicy.canOwnServers(actor)) throw forbidden(MSG.onlyOwnersBuy);
  },

  /** An owner buys boost packages and weekends only for a server of their own. */
  assertCanBuyFor(actor: Pick<UserRow, 'id'>, server: Owned): void {
    serverPolicy.assertCanManage(actor, server);
  },

  /** Only owners subscribe, and a plan already held is not sold again. */
  assertCanSubscribe(actor: Buyer, plan: 'Pro' | 'Premium'): void {
    paymentsPolicy.assertIsOwnerBuyer(actor);
    if (normalizePlan(actor.subscriptionPlan) === plan) throw conflict(MSG.alreadySubscribed);
  },

  /** Single boosts are given by players only. */
  assertIsPlayerBooster(actor: Pick<UserRow, 'role'>): void {
    if (actor.role !== 'player') throw forbidden(MSG.onlyPlayersBoost);
  },

  /** Nobody boosts their own server: the counter would mean nothing. */
  assertCanBoost(actor: Pick<UserRow, 'id'>, server: Owned): void {
    if (server.ownerId === actor.id) throw forbidden(MSG.ownServerBoost);
  },

  /** Boosts are not sold while an admin has turned boosting off. */
  assertBoostingEnabled(enabled: boolean): void {
    if (!enabled) throw forbidden(MSG.boostingDisabled);
  },

  /** The built-in test checkout takes payments only when Stripe is not configured. */
  assertTestCheckoutOpen(stripeConfigured: boolean): void {
    if (stripeConfigured) throw forbidden(MSG.testCheckoutDisabled);
  },

  /**
   * Only its buyer pays a test checkout (anyone else, or a Stripe session, is not found), and
   * only while it is not canceled or expired. Answers the checkout it let through.
   */
  assertCanPayTest<T extends TestCheckout>(actor: Pick<UserRow, 'id'>, checkout: T | undefined): T {
    if (!checkout || checkout.userId !== actor.id || checkout.provider !== 'test') throw notFound(MSG.checkoutNotFound);
    if (checkout.status === 'canceled' || checkout.status === 'expired') throw conflict(MSG.checkoutClosed);
    return checkout;
  },
};
