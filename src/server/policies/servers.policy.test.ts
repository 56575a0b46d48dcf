import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { PLANS, ROLES, type Plan } from '../../shared/roles';
import { serverPolicy } from './servers.policy';

const denied = (statusCode: number, message: string) => expect.objectContaining({ statusCode, message });

describe('serverPolicy', () => {
  const server = { ownerId: 7, hidden: false };
  const hidden = { ownerId: 7, hidden: true };

  it('lets only the owner manage a server, not even an admin', () => {
    expect(() => serverPolicy.assertCanManage({ id: 7 }, server)).not.toThrow();
    for (const actor of [{ id: 8 }, { id: 1, role: 'admin' as const }]) {
      expect(() => serverPolicy.assertCanManage(actor, server)).toThrow(denied(403, MSG.notYourServer));
    }
  });

  it('lets Pro and Premium save, and no one on the free plan', () => {
    for (const plan of ['Pro', 'Premium'] as const) {
      expect(() => serverPolicy.assertCanSave({ subscriptionPlan: plan })).not.toThrow();
    }
    expect(() => serverPolicy.assertCanSave({ subscriptionPlan: '' })).toThrow(denied(403, MSG.saveNeedsPlan));
  });

  it('keeps an owner from joining, voting on or boosting their own server', () => {
    expect(() => serverPolicy.assertNotOwnServer({ id: 8 }, server)).not.toThrow();
    expect(() => serverPolicy.assertNotOwnServer({ id: 7 }, server)).toThrow(denied(403, MSG.ownServerVote));
    expect(() => serverPolicy.assertCanVoteOn({ id: 8 }, server)).not.toThrow();
    expect(() => serverPolicy.assertCanVoteOn({ id: 7 }, server)).toThrow(denied(403, MSG.ownServerVote));
  });

  it('takes no joins or votes on a hidden server, answering 404 to everyone', () => {
    for (const actor of [{ id: 8 }, { id: 7 }, { id: 1 }]) {
      expect(() => serverPolicy.assertCanVoteOn(actor, hidden)).toThrow(denied(404, MSG.serverNotFound));
    }
  });

  it('takes review texts only while reviews are turned on', () => {
    expect(() => serverPolicy.assertCanReview(true)).not.toThrow();
    expect(() => serverPolicy.assertCanReview(false)).toThrow(denied(403, MSG.reviewsDisabled));
  });

  it('lets only owners create: the first server free, the second and third with Premium, never a fourth', () => {
    for (const role of ROLES.filter((r) => r !== 'server_owner')) {
      for (const plan of PLANS) {
        expect(() => serverPolicy.assertCanCreate({ role, subscriptionPlan: plan }, 0)).toThrow(denied(403, MSG.onlyOwnersCreate));
      }
      expect(serverPolicy.canOwnServers({ role })).toBe(false);
    }
    expect(serverPolicy.canOwnServers({ role: 'server_owner' })).toBe(true);
    const owner = (subscriptionPlan: Plan) => ({ role: 'server_owner' as const, subscriptionPlan });
    for (const plan of PLANS) expect(() => serverPolicy.assertCanCreate(owner(plan), 0)).not.toThrow();
    for (const owned of [1, 2]) {
      expect(() => serverPolicy.assertCanCreate(owner('Premium'), owned)).not.toThrow();
      for (const plan of ['', 'Pro'] as const) {
        expect(() => serverPolicy.assertCanCreate(owner(plan), owned)).toThrow(denied(403, MSG.premiumRequired));
      }
    }
    for (const plan of PLANS) {
      for (const owned of [3, 4]) expect(() => serverPolicy.assertCanCreate(owner(plan), owned)).toThrow(denied(403, MSG.maxServers));
    }
  });

  it('shows a hidden server only to its owner and admins, as a 404 to everyone else', () => {
    for (const viewer of [undefined, { id: 8, role: 'player' as const }, { id: 7, role: 'player' as const }]) {
      expect(serverPolicy.canSee(viewer, server)).toBe(true);
      expect(() => serverPolicy.assertCanSee(viewer, server)).not.toThrow();
    }
    for (const viewer of [
      { id: 7, role: 'server_owner' as const },
      { id: 1, role: 'admin' as const },
    ]) {
      expect(serverPolicy.canSee(viewer, hidden)).toBe(true);
      expect(() => serverPolicy.assertCanSee(viewer, hidden)).not.toThrow();
    }
    for (const viewer of [undefined, { id: 8, role: 'player' as const }, { id: 9, role: 'server_owner' as const }]) {
      expect(serverPolicy.canSee(viewer, hidden)).toBe(false);
      expect(() => serverPolicy.assertCanSee(viewer, hidden)).toThrow(denied(404, MSG.serverNotFound));
    }
  });
});
