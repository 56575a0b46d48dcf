import type { UserRow } from '../db/schema';
import { adminPolicy } from './admin.policy';

/**
 * Who may do what with reports. Any signed-in user may report a server or a review (the route
 * asks for a login, nothing more); only an admin sees the queue and resolves reports.
 */
export const moderationPolicy = {
  /** The report queue and its hide/dismiss actions: admins only, anyone else gets 403. */
  assertCanModerate(actor: Pick<UserRow, 'role'>): void {
    adminPolicy.assertIsAdmin(actor);
  },
};
