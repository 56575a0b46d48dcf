import type { UserRow } from '../../db/schema';
import type { User } from '../../../shared/schemas/auth';
import { toApiId } from '../../lib/ids';

/** The API's user object, ids as strings (docs/decisions/002-ids-and-types.md); nothing private leaves through it. */
export function toApiUser(row: UserRow): User {
  return {
    id: toApiId(row.id),
    username: row.username,
    role: row.role,
    email: row.email,
    emailConfirmed: row.email !== null && row.emailConfirmedAt !== null,
    subscriptionPlan: row.subscriptionPlan,
    displayName: row.displayName || row.username,
    profilePicture: row.profilePicture,
    discord:
      row.discordId && row.discordLinkedAt
        ? { username: row.discordUsername ?? 'Discord', linkedAt: row.discordLinkedAt.toISOString() }
        : null,
    hasPassword: row.passwordHash !== null,
    locale: row.locale ?? null,
  };
}
