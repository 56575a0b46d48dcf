// Accounts and their sessions: users, refresh tokens, password resets, e-mail changes.
import type { Locale } from '../../../shared/i18n/locales';
import type { Id, CreatedAt, Timestamp, NullableTimestamp, Defaulted } from './columns';

export interface UsersTable {
  id: Id;
  username: string;
  /** Null for an account that signs in with Discord only (it can set a password later). */
  passwordHash: string | null;
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
  /** The linked Discord account: its id (one user each), its name, when Discord created it, when it was linked. */
  discordId: Defaulted<string | null>;
  discordUsername: Defaulted<string | null>;
  discordCreatedAt: NullableTimestamp;
  discordLinkedAt: NullableTimestamp;
  /** The language the user chose for the site and their e-mails; null until they choose. */
  locale: Defaulted<Locale | null>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

/** One authorization with Discord under way: its `state` and the browser it is bound to, hashed; used once. */
export interface OauthStatesTable {
  id: Id;
  stateHash: string;
  bindingHash: string;
  codeVerifier: string;
  intent: 'login' | 'link';
  /** The signed-in user who is linking (intent `link`). */
  userId: number | null;
  /** That user's token version when the link began: it links only while still the same. */
  tokenVersion: number | null;
  returnTo: string;
  expiresAt: Date;
  usedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

/** A Discord account signing up, waiting for its owner to pick a username and a role. */
export interface DiscordSignupsTable {
  id: Id;
  tokenHash: string;
  /** The browser that came back from Discord (its cookie, hashed): only it may finish the sign-up. */
  bindingHash: string;
  discordId: string;
  discordUsername: string;
  discordCreatedAt: Date;
  email: string | null;
  emailVerified: Defaulted<boolean>;
  network: string | null;
  returnTo: string;
  expiresAt: Date;
  usedAt: NullableTimestamp;
  createdAt: CreatedAt;
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
