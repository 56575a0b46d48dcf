import type { UserRow } from '../db/schema';
import { adminPolicy } from './admin.policy';

/**
 * Mass e-mail is for admins only: sending a campaign and reading campaigns and their counts.
 * Unsubscribing needs no login: the signed link in the e-mail is the credential.
 */
export const emailPolicy = {
  /** Only an admin sends a campaign; anyone else gets the generic 403. */
  assertMaySend(actor: Pick<UserRow, 'role'>): void {
    adminPolicy.assertIsAdmin(actor);
  },

  /** Only an admin reads campaigns; anyone else gets the generic 403. */
  assertMayReadCampaigns(actor: Pick<UserRow, 'role'>): void {
    adminPolicy.assertIsAdmin(actor);
  },
};
