import type { ServerRow, UserRow } from '../db/schema';
import { LIMITS } from '../../shared/limits';
import { MSG } from '../../shared/messages';
import { normalizePlan } from '../../shared/roles';
import { forbidden, notFound } from '../errors';
import { adminPolicy } from './admin.policy';

type Owned = Pick<ServerRow, 'ownerId'>;
type Listed = Pick<ServerRow, 'ownerId' | 'hidden'>;

const canOwnServers = (actor: Pick<UserRow, 'role'>): boolean => actor.role === 'server_owner';
const canSee = (viewer: Pick<UserRow, 'id' | 'role'> | undefined, server: Listed): boolean =>
  !server.hidden || server.ownerId === viewer?.id || adminPolicy.isAdmin(viewer);
const assertNotOwnServer = (actor: Pick<UserRow, 'id'>, server: Owned): void => {
  if (server.ownerId === actor.id) throw forbidden(MSG.ownServerVote);
};

/** Who may see, change, create and vote on a server: the one place that answers it. */
export const serverPolicy = {
  /** Only the owner manages a server's page and media; an admin hides it instead. */
  assertCanManage(actor: Pick<UserRow, 'id'>, server: Owned): void {
    if (server.ownerId !== actor.id) throw forbidden(MSG.notYourServer);
  },

  /** Saving customisations is a paid feature: it needs Pro or Premium. */
  assertCanSave(actor: Pick<UserRow, 'subscriptionPlan'>): void {
    if (normalizePlan(actor.subscriptionPlan) === '') throw forbidden(MSG.saveNeedsPlan);
  },

  /** Owners cannot join, vote on or boost their own server: the counters would mean nothing. */
  assertNotOwnServer,

  /**
   * Joins and votes go to listed servers only (a hidden one answers 404, even to an admin), and
   * never to the voter's own server.
   */
  assertCanVoteOn(actor: Pick<UserRow, 'id'>, server: Listed): void {
    if (server.hidden) throw notFound(MSG.serverNotFound);
    assertNotOwnServer(actor, server);
  },

  /**
   * Joining, liking, disliking, reviewing and daily votes count only from a confirmed e-mail
   * address: one real person, one vote (docs/decisions/029-ranking-integrity.md).
   */
  assertConfirmed(actor: Pick<UserRow, 'email' | 'emailConfirmedAt'>): void {
    if (!actor.email || !actor.emailConfirmedAt) throw forbidden(MSG.confirmEmailFirst);
  },

  /** Whether the account may join and vote at all (its e-mail address is confirmed). */
  isConfirmed(actor: Pick<UserRow, 'email' | 'emailConfirmedAt'>): boolean {
    return Boolean(actor.email && actor.emailConfirmedAt);
  },

  /** A vote may carry a review text only while reviews are turned on (an admin setting). */
  assertCanReview(reviewsEnabled: boolean): void {
    if (!reviewsEnabled) throw forbidden(MSG.reviewsDisabled);
  },

  /** Only server owners have servers; anyone else owns none. */
  canOwnServers,

  /**
   * Creating: only owners; the first server is free, the second and third need Premium, and
   * never more than three.
   */
  assertCanCreate(actor: Pick<UserRow, 'role' | 'subscriptionPlan'>, owned: number): void {
    if (!canOwnServers(actor)) throw forbidden(MSG.onlyOwnersCreate);
    if (owned >= LIMITS.maxServersPerOwner) throw forbidden(MSG.maxServers);
    if (owned >= 1 && normalizePlan(actor.subscriptionPlan) !== 'Premium') throw forbidden(MSG.premiumRequired);
  },

  /** Hidden servers are seen only by their owner and admins; everyone else sees listed ones. */
  canSee,

  /** A server the viewer may not see answers 404, as if it did not exist. */
  assertCanSee(viewer: Pick<UserRow, 'id' | 'role'> | undefined, server: Listed): void {
    if (!canSee(viewer, server)) throw notFound(MSG.serverNotFound);
  },
};
