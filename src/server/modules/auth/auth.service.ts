import { langParam, mailText } from '../../i18n/mail-text';
import { serverT } from '../../i18n/translate';
import type { Locale } from '../../../shared/i18n/locales';
import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Mailer } from '../../adapters/mailer';
import type { RegisterBody, LoginBody } from '../../../shared/schemas/auth';
import { MSG } from '../../../shared/messages';
import { DISCORD_MSG } from '../../../shared/discord';
import { AppError, badRequest, conflict, isUniqueViolation } from '../../errors';
import { authPolicy } from '../../policies/auth.policy';
import type { UsersRepository } from '../users';
import { burnVerifyTime, hashPassword, verifyPassword, warmDummyHash } from './password';
import type { TokenService } from './tokens';
import { refreshTokens } from './refresh-tokens';
import { emailChanges } from './email-change';
import type { SessionsRepository } from './sessions.repository';
import type { ResetCodesRepository } from './reset-codes.repository';
import type { EmailChangesRepository } from './email-changes.repository';

interface Deps {
  users: UsersRepository;
  sessions: SessionsRepository;
  resetCodes: ResetCodesRepository;
  emailChanges: EmailChangesRepository;
  inTransaction: InTransaction;
  tokens: TokenService;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
  /** Where a failed background e-mail is reported. */
  onMailError: (error: unknown) => void;
}

/** A login: the user, a short-lived access token and the refresh token that renews it. */
export interface SessionGrant {
  user: UserRow;
  token: string;
  refreshToken: string;
}

/** Registration, login, sessions, password reset and e-mail changes. */
export function authService(deps: Deps) {
  const { users, sessions, resetCodes: codes, inTransaction, tokens, mailer, publicUrl, now, onMailError } = deps;
  const refresh = refreshTokens({ sessions, inTransaction, now });
  const emails = emailChanges({ users, changes: deps.emailChanges, inTransaction, mailer, publicUrl, now, onMailError });
  warmDummyHash();

  const session = async (user: UserRow): Promise<SessionGrant> => {
    const issued = await refresh.issue(user.id);
    const token = await tokens.sign({ userId: user.id, version: user.tokenVersion, sessionId: issued.familyId });
    return { user, token, refreshToken: issued.token };
  };

  return {
    /** A session for a user who proved who they are another way (Discord): the same as after a password login. */
    startSession: session,

    /**
     * A first password for an account that has none (one made with Discord): a fresh session,
     * every older one ends, as after a password change.
     */
    async setFirstPassword(user: UserRow, newPassword: string): Promise<SessionGrant> {
      if (user.passwordHash !== null) throw conflict(DISCORD_MSG.hasPassword);
      await users.setPassword(user.id, await hashPassword(newPassword));
      const updated = await users.findById(user.id);
      if (!updated) throw new AppError(401, MSG.sessionExpired);
      // A new way in: the confirmed address hears of it, so a stolen session cannot add one unseen.
      if (updated.email && updated.emailConfirmedAt) {
        const t = serverT(updated.locale);
        void mailer
          .send({
            to: updated.email,
            subject: t('email.passwordSet.subject'),
            text: mailText(t, updated.username, t('email.passwordSet.body')),
          })
          .catch(onMailError);
      }
      return session(updated);
    },

    /**
     * A new account; `network` (the caller's /24 or /64) is kept to see registration bursts, and
     * `locale` (the language the page was in) becomes the account's, so its first e-mail, the
     * confirmation, is already in it.
     */
    async register(body: RegisterBody, network: string | null = null, locale: Locale | null = null): Promise<SessionGrant> {
      authPolicy.assertMayRegisterAs(body.role);
      if (await users.findByUsername(body.username)) throw conflict(MSG.usernameTaken);
      const email = body.email?.trim() || undefined;
      if (email) await emails.assertAcceptable(undefined, email);
      const passwordHash = await hashPassword(body.password);
      let user: UserRow;
      try {
        user = await users.create({
          username: body.username,
          passwordHash,
          role: body.role,
          email: null,
          profilePicture: null,
          stripeCustomerId: null,
          registeredNetwork: network,
          locale,
        });
      } catch (error) {
        // Two registrations of one name at once: the unique index decides, the loser gets 409.
        if (isUniqueViolation(error)) throw conflict(MSG.usernameTaken);
        throw error;
      }
      // The confirmation link goes out at once; joining, voting and reviewing wait for it.
      if (email) {
        await emails.request(user, email);
        user = (await users.findById(user.id)) ?? user;
      }
      return session(user);
    },

    /** Same status, body and (through a dummy hash) time for an unknown user and a wrong password. */
    async login(body: LoginBody): Promise<SessionGrant> {
      const user = await users.findByUsername(body.username);
      if (!user) {
        await burnVerifyTime(body.password);
        throw new AppError(401, MSG.invalidCredentials);
      }
      if (!(await verifyPassword(user.passwordHash, body.password))) throw new AppError(401, MSG.invalidCredentials);
      return session(user);
    },

    /** Forgets refresh tokens of sessions that ended long ago (run hourly by the background work). */
    pruneSessions: () => refresh.prune(),

    /** A new access token (and the next refresh token) for a refresh token; 401 for anything else. */
    async refresh(refreshToken: string): Promise<SessionGrant> {
      const result = await refresh.rotate(refreshToken);
      if (!result.ok) throw new AppError(401, MSG.sessionExpired);
      const user = await users.findById(result.userId);
      if (!user) throw new AppError(401, MSG.sessionExpired);
      const token = await tokens.sign({ userId: user.id, version: user.tokenVersion, sessionId: result.refresh.familyId });
      return { user, token, refreshToken: result.refresh.token };
    },

    /**
     * Ends the login session an access token or a refresh token belongs to (other devices stay
     * logged in). An access token that no longer verifies names no session.
     */
    async logout(accessToken: string | undefined, refreshToken: string | undefined): Promise<void> {
      const sessionId = accessToken ? (await tokens.verify(accessToken))?.sessionId : undefined;
      if (sessionId) await refresh.revokeFamily(sessionId);
      const family = refreshToken ? await refresh.familyOf(refreshToken) : undefined;
      if (family && family.familyId !== sessionId) await refresh.revokeFamily(family.familyId);
    },

    /**
     * Always the same answer, whether or not the user exists or has an address: the answer tells
     * nobody which usernames exist.
     * The mail goes out in the background, so the answer's timing does not tell either.
     */
    async requestReset(username: string): Promise<void> {
      const user = await users.findByUsername(username);
      if (!user?.email) return;
      const code = await codes.create(user.id);
      const link = `${publicUrl}/login?reset=${encodeURIComponent(code)}${langParam(user.locale)}`;
      const t = serverT(user.locale);
      void mailer
        .send({
          to: user.email,
          subject: t('email.reset.subject'),
          text: mailText(t, user.username, t('email.reset.body', { link, code })),
        })
        .catch(onMailError);
    },

    /** The account a reset code belongs to, so guesses are throttled per account rather than site-wide. */
    resetCodeOwner: (code: string) => codes.ownerOf(code),

    /**
     * Uses the code once, sets the password and ends every older session, all in one transaction.
     * A wrong code counts against the code it names; five wrong tries burn it.
     */
    async resetPassword(code: string, newPassword: string): Promise<void> {
      if (!(await codes.check(code))) throw new AppError(400, MSG.resetTokenInvalid);
      const passwordHash = await hashPassword(newPassword);
      const done = await inTransaction(async (tx) => {
        const userId = await codes.consume(code, tx);
        if (userId === undefined) return false;
        await users.setPassword(userId, passwordHash, tx);
        return true;
      });
      if (!done) throw new AppError(400, MSG.resetTokenInvalid);
    },

    /** Saves the language of the user's pages and e-mails; the updated user. */
    async setLocale(user: UserRow, locale: Locale): Promise<UserRow> {
      const updated = await users.setLocale(user.id, locale);
      if (!updated) throw new AppError(401, MSG.sessionExpired);
      return updated;
    },

    /** Changes the password and answers a fresh session: every older token and session ends. */
    async changePassword(user: UserRow, currentPassword: string, newPassword: string): Promise<SessionGrant> {
      authPolicy.assertCurrentPassword(await verifyPassword(user.passwordHash, currentPassword));
      await users.setPassword(user.id, await hashPassword(newPassword));
      const updated = await users.findById(user.id);
      if (!updated) throw new AppError(401, MSG.sessionExpired);
      return session(updated);
    },

    /**
     * Changing an address asks for the password, then mails a confirmation link to the new address
     * and a notice to the old one. A first address needs no password (there is nothing to take over).
     */
    async requestEmailChange(user: UserRow, email: string, currentPassword: string | undefined): Promise<void> {
      const proof = authPolicy.emailChangeProof(user, currentPassword);
      if (proof !== undefined) authPolicy.assertCurrentPassword(await verifyPassword(user.passwordHash, proof));
      await emails.assertAcceptable(user.id, email);
      await emails.request(user, email);
    },

    /** Mails the confirmation link again for the account's unconfirmed address. */
    async resendConfirmation(user: UserRow): Promise<void> {
      if (!user.email) throw badRequest(MSG.emailRequired);
      if (user.emailConfirmedAt) throw conflict(MSG.emailAlreadyConfirmed);
      await emails.request(user, user.email);
    },

    /** Opens a confirmation link: the address changes now, once. */
    async confirmEmailChange(token: string): Promise<void> {
      if ((await emails.confirm(token)) === undefined) throw new AppError(400, MSG.emailConfirmInvalid);
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
