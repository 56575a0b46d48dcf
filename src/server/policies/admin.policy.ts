import type { UserRow } from '../db/schema';
import { forbidden } from '../errors';

/** What only an admin may do: the admin pages, moderation, mass e-mail, site-wide settings. */
export const adminPolicy = {
  /** True for an admin. */
  isAdmin(actor: Pick<UserRow, 'role'> | undefined): boolean {
    return actor?.role === 'admin';
  },

  /** Anyone but an admin gets 403 with the generic "no permission" message. */
  assertIsAdmin(actor: Pick<UserRow, 'role'>): void {
    if (actor.role !== 'admin') throw forbidden();
  },
};
