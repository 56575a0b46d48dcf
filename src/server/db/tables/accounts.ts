// Accounts and their sessions: users, refresh tokens, password resets, e-mail changes.
import type { Id, CreatedAt, Timestamp, NullableTimestamp, Defaulted } from './columns';

export interface UsersTable {
  id: Id;
  username: string;
  passwordHash: string;
  role: 'player' | 'server_owner' | 'admin';
  email: string | null;
  /** When the link mailed to `email` was opened; null while unconfirmed. */
  emailConfirmedAt: Timestamp | null;
  /** The confirmed address, normalised (one account per mailbox); null until one is confirmed. */
  emailKey: string | null;
  /** The /24 or /64 network the account was registered from (registration bursts). */
  registeredNetwork: string | null;
  emailUnsubscribed: Defaulted<boolean>;
  subscriptionPlan: Defaulted<'' | 'Pro' | 'Premium'>;
  displayName: Defaulted<string>;
  profilePicture: string | null;
  tokenVersion: Defaulted<number>;
  stripeCustomerId: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export interface ResetTokensTable {
  id: Id;
  userId: number;
  tokenHash: string;
  expiresAt: Date;
  usedAt: NullableTimestamp;
  createdAt: CreatedAt;
  /** Public half of a reset code: names the code a guess is aimed at. */
  selector: string | null;
  /** Wrong guesses so far; the code is burnt at the limit. */
  attempts: Defaulted<number>;
}

export interface RefreshTokensTable {
  id: Id;
  userId: number;
  /** One family per login: every rotated token of that session shares it. */
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  usedAt: NullableTimestamp;
  revokedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

export interface EmailChangesTable {
  id: Id;
  userId: number;
  newEmail: string;
  tokenHash: string;
  expiresAt: Date;
  usedAt: NullableTimestamp;
  createdAt: CreatedAt;
}
