import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { ROLES } from '../../shared/roles';
import { notificationsPolicy } from './notifications.policy';

const owner = { id: 7, role: 'server_owner' as const, subscriptionPlan: 'Pro' as const };
const server = { id: 1, ownerId: 7, hidden: false };

describe('notificationsPolicy', () => {
  it('lets only admins write notifications', () => {
    expect(() => notificationsPolicy.assertMayWrite({ role: 'admin' })).not.toThrow();
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      expect(() => notificationsPolicy.assertMayWrite({ role })).toThrow(
        expect.objectContaining({ statusCode: 403, message: MSG.forbidden }),
      );
    }
  });

  it('lets only server owners send push promotions', () => {
    expect(() => notificationsPolicy.assertMaySendPromotions({ role: 'server_owner' })).not.toThrow();
    for (const role of ROLES.filter((r) => r !== 'server_owner')) {
      expect(() => notificationsPolicy.assertMaySendPromotions({ role })).toThrow(
        expect.objectContaining({ statusCode: 403, message: MSG.forbidden }),
      );
    }
  });

  it('allows no promotions without a plan, 2 a day on Pro and 4 on Premium', () => {
    expect(notificationsPolicy.dailyPushLimit({ subscriptionPlan: '' })).toBe(0);
    expect(notificationsPolicy.dailyPushLimit({ subscriptionPlan: 'Pro' })).toBe(2);
    expect(notificationsPolicy.dailyPushLimit({ subscriptionPlan: 'Premium' })).toBe(4);
  });

  it('lets the owner on a paid plan promote a visible server and returns it', () => {
    expect(notificationsPolicy.assertMayPromote(owner, server)).toBe(server);
    expect(notificationsPolicy.assertMayPromote({ ...owner, subscriptionPlan: 'Premium' }, server)).toBe(server);
  });

  it('answers 404 for a missing or hidden server, before ownership is looked at', () => {
    const notFound = expect.objectContaining({ statusCode: 404, message: MSG.serverNotFound });
    expect(() => notificationsPolicy.assertMayPromote(owner, undefined)).toThrow(notFound);
    expect(() => notificationsPolicy.assertMayPromote(owner, { ...server, hidden: true })).toThrow(notFound);
    expect(() => notificationsPolicy.assertMayPromote({ ...owner, id: 8 }, { ...server, hidden: true })).toThrow(notFound);
  });

  it('refuses another owner’s server, then a plan without push', () => {
    expect(() => notificationsPolicy.assertMayPromote({ ...owner, id: 8, subscriptionPlan: '' }, server)).toThrow(
      expect.objectContaining({ statusCode: 403, message: MSG.notYourServer }),
    );
    expect(() => notificationsPolicy.assertMayPromote({ ...owner, subscriptionPlan: '' }, server)).toThrow(
      expect.objectContaining({ statusCode: 403, message: MSG.pushNeedsPlan }),
    );
  });

  it('answers 429 with Retry-After once the day’s promotions are used', () => {
    expect(() => notificationsPolicy.assertWithinDailyQuota(1, 2)).not.toThrow();
    for (const used of [2, 3]) {
      expect(() => notificationsPolicy.assertWithinDailyQuota(used, 2)).toThrow(
        expect.objectContaining({ statusCode: 429, message: MSG.pushLimitReached, headers: { 'retry-after': '3600' } }),
      );
    }
  });
});
