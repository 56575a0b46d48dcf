import type { UserRow } from '../db/schema';
import { forbidden } from '../errors';
import { adminPolicy } from './admin.policy';

type Actor = Pick<UserRow, 'id' | 'role'>;

/** A profile lists what its user joined, voted and boosted: private to that user (and admins). */
const isOwnOrAdmin = (actor: Actor, userId: number): boolean => userId === actor.id || adminPolicy.isAdmin(actor);

/** Who may read and edit a player profile. */
export const playersPolicy = {
  /** Its own user or an admin reads a profile; anyone else gets 403. */
  assertCanView(actor: Actor, userId: number): void {
    if (!isOwnOrAdmin(actor, userId)) throw forbidden();
  },

  /** Its own user or an admin changes the display name and picture; anyone else gets 403. */
  assertCanEdit(actor: Actor, userId: number): void {
    if (!isOwnOrAdmin(actor, userId)) throw forbidden();
  },
};
