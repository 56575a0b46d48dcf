import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { ROLES } from '../../shared/roles';
import { paymentsPolicy } from './payments.policy';

const denied = (statusCode: number, message: string) => expect.objectContaining({ statusCode, message });

describe('paymentsPolicy', () => {
  const owner = { id: 7, role: 'server_owner' as const, subscriptionPlan: '' as const };
  const server = { ownerId: 7 };

  it('sells plans, packages and weekends to server owners only', () => {
    expect(() => paymentsPolicy.assertIsOwnerBuyer(owner)).not.toThrow();
    for (const role of ROLES.filter((r) => r !== 'server_owner')) {
      expect(() => paymentsPolicy.assertIsOwnerBuyer({ role })).toThrow(denied(403, MSG.onlyOwnersBuy));
    }
  });

  it('lets an owner buy for their own server only, not even an admin for another', () => {
    expect(() => paymentsPolicy.assertCanBuyFor({ id: 7 }, server)).not.toThrow();
    for (const actor of [{ id: 8 }, { id: 1, role: 'admin' as const }]) {
      expect(() => paymentsPolicy.assertCanBuyFor(actor, server)).toThrow(denied(403, MSG.notYourServer));
    }
  });

  it('lets an owner subscribe to a plan they do not hold, and no one else', () => {
    expect(() => paymentsPolicy.assertCanSubscribe(owner, 'Pro')).not.toThrow();
    expect(() => paymentsPolicy.assertCanSubscribe({ ...owner, subscriptionPlan: 'Pro' }, 'Premium')).not.toThrow();
    expect(() => paymentsPolicy.assertCanSubscribe({ ...owner, subscriptionPlan: 'Pro' }, 'Pro')).toThrow(
      denied(409, MSG.alreadySubscribed),
    );
    expect(() => paymentsPolicy.assertCanSubscribe({ ...owner, role: 'player' }, 'Pro')).toThrow(denied(403, MSG.onlyOwnersBuy));
  });

  it('lets only players give a single boost, never to their own server', () => {
    expect(() => paymentsPolicy.assertIsPlayerBooster({ role: 'player' })).not.toThrow();
    for (const role of ROLES.filter((r) => r !== 'player')) {
      expect(() => paymentsPolicy.assertIsPlayerBooster({ role })).toThrow(denied(403, MSG.onlyPlayersBoost));
    }
    expect(() => paymentsPolicy.assertCanBoost({ id: 8 }, server)).not.toThrow();
    expect(() => paymentsPolicy.assertCanBoost({ id: 7 }, server)).toThrow(denied(403, MSG.ownServerBoost));
  });

  it('sells no boosts while boosting is turned off', () => {
    expect(() => paymentsPolicy.assertBoostingEnabled(true)).not.toThrow();
    expect(() => paymentsPolicy.assertBoostingEnabled(false)).toThrow(denied(403, MSG.boostingDisabled));
  });

  it('keeps the test checkout shut when Stripe is configured', () => {
    expect(() => paymentsPolicy.assertTestCheckoutOpen(false)).not.toThrow();
    expect(() => paymentsPolicy.assertTestCheckoutOpen(true)).toThrow(denied(403, MSG.testCheckoutDisabled));
  });

  it('lets only the buyer pay an open or completed test checkout', () => {
    const checkout = { userId: 7, provider: 'test' as const, status: 'open' as const };
    expect(paymentsPolicy.assertCanPayTest({ id: 7 }, checkout)).toBe(checkout);
    // Paying twice is answered by fulfilment (credited: false), not refused here.
    expect(() => paymentsPolicy.assertCanPayTest({ id: 7 }, { ...checkout, status: 'complete' })).not.toThrow();
    for (const [actor, other] of [
      [{ id: 8 }, checkout],
      [{ id: 7 }, { ...checkout, provider: 'stripe' as const }],
      [{ id: 7 }, undefined],
    ] as const) {
      expect(() => paymentsPolicy.assertCanPayTest(actor, other)).toThrow(denied(404, MSG.checkoutNotFound));
    }
    for (const status of ['canceled', 'expired'] as const) {
      expect(() => paymentsPolicy.assertCanPayTest({ id: 7 }, { ...checkout, status })).toThrow(denied(409, MSG.checkoutClosed));
    }
  });
});
