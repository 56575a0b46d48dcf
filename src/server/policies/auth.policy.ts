import type { UserRow } from '../db/schema';
import { badRequest } from '../errors';
import { MSG } from '../../shared/messages';
import { REGISTRABLE_ROLES } from '../../shared/roles';
import { adminPolicy } from './admin.policy';

/** Who may get an account of which role, and what proof an account change needs. */
export const authPolicy = {
  /** Registration offers the player and server-owner roles only: admins come from ADMIN_* at start-up. */
  assertMayRegisterAs(role: string): void {
    if (!(REGISTRABLE_ROLES as readonly string[]).includes(role)) throw badRequest(MSG.roleInvalid);
  },

  /**
   * The start-up admin may take over an existing account of its name only when that account is an
   * admin already (so it was made by this bootstrap): it never promotes someone else's account.
   */
  mayBootstrapAdminOver(existing: Pick<UserRow, 'role'>): boolean {
    return adminPolicy.isAdmin(existing);
  },

  /**
   * The password to check before an e-mail change, or undefined when none is needed: changing an
   * existing address needs the current password (a stolen session cannot move the account), a
   * first address does not (there is nothing to take over). Missing when needed: 400.
   */
  emailChangeProof(user: Pick<UserRow, 'email'>, currentPassword: string | undefined): string | undefined {
    if (!user.email) return undefined;
    if (!currentPassword) throw badRequest(MSG.allFieldsRequired);
    return currentPassword;
  },

  /** A password or e-mail change goes ahead only with the right current password: otherwise 400. */
  assertCurrentPassword(matches: boolean): void {
    if (!matches) throw badRequest(MSG.currentPasswordWrong);
  },
};
