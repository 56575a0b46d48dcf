import type { UserRow } from '../db/schema';
import { PUSH_LIMITS } from '../../shared/limits';
import { MSG } from '../../shared/messages';
import { normalizePlan } from '../../shared/roles';
import { forbidden, notFound, tooMany } from '../errors';
import { adminPolicy } from './admin.policy';

/** What the rules below need to know about a server that would be promoted. */
export interface PromotedServer {
  ownerId: number;
  hidden: boolean;
}

/** Who may write notifications and send push promotions, and how many. */
export const notificationsPolicy = {
  /** Notifications are written by admins only (to one user or to every user of a role). */
  assertMayWrite(actor: Pick<UserRow, 'role'>): void {
    adminPolicy.assertIsAdmin(actor);
  },

  /** Push promotions the actor's plan allows in 24 hours: none without a paid plan. */
  dailyPushLimit(actor: Pick<UserRow, 'subscriptionPlan'>): number {
    return PUSH_LIMITS[normalizePlan(actor.subscriptionPlan)];
  },

  /** Only server owners send push promotions; anyone else gets the generic 403. */
  assertMaySendPromotions(actor: Pick<UserRow, 'role'>): void {
    if (actor.role !== 'server_owner') throw forbidden();
  },

  /**
   * A promotion is for a server that exists and is not hidden (else 404), that the actor owns
   * (else 403), on a plan that includes push (else 403). Returns the server, known to exist.
   */
  assertMayPromote<S extends PromotedServer>(actor: Pick<UserRow, 'id' | 'subscriptionPlan'>, server: S | undefined): S {
    if (!server || server.hidden) throw notFound(MSG.serverNotFound);
    if (server.ownerId !== actor.id) throw forbidden(MSG.notYourServer);
    if (notificationsPolicy.dailyPushLimit(actor) === 0) throw forbidden(MSG.pushNeedsPlan);
    return server;
  },

  /** `used` promotions in the last 24 hours must leave room under `limit`; else 429, retry in an hour. */
  assertWithinDailyQuota(used: number, limit: number): void {
    if (used >= limit) throw tooMany(3600, MSG.pushLimitReached);
  },
};
