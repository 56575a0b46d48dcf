import type { Locale } from '../../../shared/i18n/locales';
import { mailText } from '../../i18n/mail-text';
import { serverT } from '../../i18n/translate';
import * as oauth from 'oauth4webapi';
import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Mailer } from '../../adapters/mailer';
import { discordCreatedAt, DiscordError, type DiscordOAuth, type DiscordProfile } from '../../adapters/discord-oauth';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../errors';
import { isDisposableEmail, normalizedEmail } from '../../lib/email-address';
import { MSG } from '../../../shared/messages';
import { safeReturnPath } from '../../../shared/return-path';
import { DISCORD_MSG, DISCORD_YOUNG_MS, type DiscordErrorCode } from '../../../shared/discord';
import type { RegistrableRole } from '../../../shared/roles';
import { authPolicy } from '../../policies/auth.policy';
import type { UsersRepository } from '../users';
import { verifyPassword, type AuthService, type SessionGrant } from '../auth';
import { randomCode, sha256 } from '../auth';
import type { DiscordRepository } from './discord.repository';
import { usernameBase, withQuery } from './discord-text';

/** How long a trip to Discord's consent screen may take, and a sign-up may wait for its username. */
const STATE_TTL_MS = 10 * 60_000;
const SIGNUP_TTL_MS = 30 * 60_000;
const HOME = '/home';

interface Deps {
  repo: DiscordRepository;
  /** Tells an account's confirmed address when Discord is linked or unlinked (a stolen session must not do it unseen). */
  mailer?: Mailer;
  onMailError?: (error: unknown) => void;
  users: UsersRepository;
  auth: AuthService;
  inTransaction: InTransaction;
  /** Absent when the site has no Discord application: every route answers 404. */
  client: DiscordOAuth | undefined;
  now: () => Date;
}

/** Where the callback sends the browser, and the session it started (a sign-in). */
export interface CallbackOutcome {
  redirect: string;
  session?: SessionGrant;
  /** A sign-up was started: the browser's cookie that alone may finish it. */
  signupBinding?: string;
}

/**
 * Sign in with Discord (docs/decisions/052-discord-sign-in.md): the authorization-code flow with
 * PKCE and a one-time `state` bound to the browser, new accounts from Discord (the person picks
 * the username and role), and linking and unlinking on the profile.
 */
export function discordService({ repo, users, auth, inTransaction, client, now, mailer, onMailError }: Deps) {
  const configured = (): DiscordOAuth => {
    if (!client) throw notFound(DISCORD_MSG.notConfigured);
    return client;
  };

  /** A free username from the Discord name: the name itself, else the name with a number. */
  const freeUsername = async (name: string): Promise<string> => {
    const base = usernameBase(name);
    if (!(await users.findByUsername(base))) return base;
    for (let i = 0; i < 20; i++) {
      const candidate = `${base.slice(0, 24)}_${Math.floor(Math.random() * 9000) + 1000}`;
      if (!(await users.findByUsername(candidate))) return candidate;
    }
    return `${base.slice(0, 20)}_${randomCode(6).replace(/[^\w]/g, '').slice(0, 6)}`;
  };

  /** The e-mail to confirm at once: Discord verified it and the account is old enough to vouch for it. */
  const vouchedEmail = (signup: { email: string | null; emailVerified: boolean; discordCreatedAt: Date }, at: Date) =>
    signup.email && signup.emailVerified && at.getTime() - signup.discordCreatedAt.getTime() >= DISCORD_YOUNG_MS ? signup.email : null;

  /** Mails the account's confirmed address about a change of how it signs in. */
  const tell = (user: UserRow, what: 'discordLinked' | 'discordUnlinked', discord: string) => {
    if (!mailer || !user.email || !user.emailConfirmedAt) return;
    const t = serverT(user.locale);
    void mailer
      .send({ to: user.email, subject: t(`email.${what}.subject`), text: mailText(t, user.username, t(`email.${what}.body`, { discord })) })
      .catch((error: unknown) => onMailError?.(error));
  };

  const signIn = async (account: DiscordProfile, returnTo: string, network: string | null): Promise<CallbackOutcome> => {
    // A throwaway mailbox is no address at all here, however Discord holds it.
    const profile = account.email && isDisposableEmail(account.email) ? { ...account, email: null, verified: false } : account;
    const user = await repo.findByDiscordId(profile.id);
    if (user) return { redirect: withQuery('/login?discord=signed-in', 'next', returnTo), session: await auth.startSession(user) };
    // One account per confirmed mailbox: a verified address someone confirmed here is not taken over.
    if (profile.email && profile.verified && (await users.findIdByEmailKey(normalizedEmail(profile.email))) !== undefined) {
      return { redirect: '/login?discordError=email-taken' };
    }
    const token = randomCode(24);
    const signupBinding = randomCode(32);
    await repo.insertSignup(
      {
        tokenHash: sha256(token),
        bindingHash: sha256(signupBinding),
        discordId: profile.id,
        discordUsername: profile.name.slice(0, 64),
        discordCreatedAt: discordCreatedAt(profile.id),
        email: profile.email,
        emailVerified: profile.verified,
        network,
        returnTo,
        expiresAt: new Date(now().getTime() + SIGNUP_TTL_MS),
      },
      now(),
    );
    return { redirect: withQuery('/register', 'discord', token), signupBinding };
  };

  /**
   * Links the Discord account that came back to the user who began the link, if that is still
   * allowed: no other user has it, the user has none linked (two links begun at once: the first
   * back wins, the second is told to unlink first), and the user's token version is the one the
   * link began with (a password changed meanwhile, which ends every session, ends the link too).
   */
  const linkTo = async (userId: number, tokenVersion: number, profile: DiscordProfile, returnTo: string): Promise<CallbackOutcome> => {
    const other = await repo.findByDiscordId(profile.id);
    if (other && other.id !== userId) return { redirect: withQuery(returnTo, 'discordError', 'taken') };
    let linked: boolean;
    try {
      const discord = { id: profile.id, username: profile.name.slice(0, 64), createdAt: discordCreatedAt(profile.id) };
      linked = await repo.link(userId, discord, tokenVersion, now());
    } catch (error) {
      if (isUniqueViolation(error)) return { redirect: withQuery(returnTo, 'discordError', 'taken') };
      throw error;
    }
    const user = await users.findById(userId);
    if (!linked) {
      const stillLinkable = user && user.tokenVersion === tokenVersion;
      return { redirect: withQuery(returnTo, 'discordError', stillLinkable && user.discordId ? 'linked' : 'state') };
    }
    if (user) tell(user, 'discordLinked', profile.name);
    return { redirect: withQuery(returnTo, 'discord', 'linked') };
  };

  /**
   * Linking gives a Discord account a way into this account for good, so a session alone is not
   * enough: the current password (when the account has one), no Discord account linked already,
   * and never an admin (admins sign in with the password from their configuration).
   */
  const assertMayLink = async (actor: UserRow | undefined, currentPassword: string | undefined) => {
    if (!actor) throw new AppError(401, MSG.loginRequired);
    if (actor.role === 'admin') throw forbidden(DISCORD_MSG.notForAdmins);
    if (actor.discordId) throw conflict(DISCORD_MSG.unlinkFirst);
    if (actor.passwordHash !== null && !(await verifyPassword(actor.passwordHash, currentPassword ?? ''))) {
      throw badRequest(currentPassword ? MSG.currentPasswordWrong : DISCORD_MSG.passwordToLink);
    }
  };

  return {
    /** Whether the site has a Discord application (the web app shows the button only then). */
    enabled: () => client !== undefined,

    /**
     * Starts an authorization: a one-time `state`, a PKCE verifier and a random binding for this
     * browser's cookie, stored hashed for ten minutes. Linking needs the signed-in user.
     */
    async start(
      intent: 'login' | 'link',
      returnTo: string | undefined,
      actor: UserRow | undefined,
      currentPassword?: string,
    ): Promise<{ url: string; binding: string }> {
      const discord = configured();
      if (intent === 'link') await assertMayLink(actor, currentPassword);
      const state = randomCode(32);
      const binding = randomCode(32);
      const codeVerifier = oauth.generateRandomCodeVerifier();
      await repo.insertState(
        {
          stateHash: sha256(state),
          bindingHash: sha256(binding),
          codeVerifier,
          intent,
          userId: intent === 'link' ? actor!.id : null,
          tokenVersion: intent === 'link' ? actor!.tokenVersion : null,
          returnTo: safeReturnPath(returnTo, intent === 'link' ? '/profile' : HOME),
          expiresAt: new Date(now().getTime() + STATE_TTL_MS),
        },
        now(),
      );
      return { url: await discord.authorizationUrl(state, codeVerifier), binding };
    },

    /**
     * Discord sent the browser back: the state must be one this browser started and not used yet;
     * then the code is traded for the account, which signs in, signs up or is linked. Every failure
     * is a redirect to the web app with a reason it can show, never a half-made account.
     */
    async callback(query: URLSearchParams, binding: string | undefined, network: string | null): Promise<CallbackOutcome> {
      const discord = configured();
      const state = query.get('state');
      const taken = state && binding ? await repo.takeState(sha256(state), sha256(binding), now()) : undefined;
      if (!state || !taken) return { redirect: '/login?discordError=state' };
      const failAt = taken.intent === 'link' ? taken.returnTo : '/login';
      let profile: DiscordProfile;
      try {
        profile = await discord.profile(query, state, taken.codeVerifier);
      } catch (error) {
        if (!(error instanceof DiscordError)) throw error;
        const code: DiscordErrorCode =
          error.kind === 'unreachable' ? 'unreachable' : error.message === 'access_denied' ? 'denied' : 'failed';
        return { redirect: withQuery(failAt, 'discordError', code) };
      }
      if (taken.intent === 'link' && taken.userId !== null)
        // A link begun before the token version was recorded links as one begun now would.
        return linkTo(
          taken.userId,
          taken.tokenVersion ?? (await users.findById(taken.userId))?.tokenVersion ?? -1,
          profile,
          taken.returnTo,
        );
      return signIn(profile, taken.returnTo, network);
    },

    /** A sign-up waiting for its username: the name offered, and the Discord account's e-mail. */
    async pending(token: string, binding: string | undefined) {
      configured();
      const signup = binding ? await repo.findSignup(sha256(token), sha256(binding), now()) : undefined;
      if (!signup) throw badRequest(DISCORD_MSG.signupExpired);
      return {
        discordName: signup.discordUsername,
        suggestedUsername: await freeUsername(signup.discordUsername),
        email: signup.email,
        emailVerified: vouchedEmail(signup, now()) !== null,
        returnTo: signup.returnTo,
      };
    },

    /**
     * Creates the account of a sign-up with the username and role the person picked, in one
     * transaction with using the sign-up; then a session as after a password login. A username
     * taken meanwhile answers 409 and leaves the sign-up usable.
     */
    async complete(
      token: string,
      binding: string | undefined,
      body: { username: string; role: RegistrableRole },
      network: string | null,
      /** The language the sign-up page was in: the account's, as at a registration. */
      locale: Locale | null = null,
    ): Promise<SessionGrant & { returnTo: string }> {
      configured();
      authPolicy.assertMayRegisterAs(body.role);
      const at = now();
      const signup = binding ? await repo.findSignup(sha256(token), sha256(binding), at) : undefined;
      if (!signup) throw badRequest(DISCORD_MSG.signupExpired);
      if (await users.findByUsername(body.username)) throw conflict(MSG.usernameTaken);
      const confirmed = vouchedEmail(signup, at);
      let user: UserRow;
      try {
        user = await inTransaction(async (tx) => {
          if (!(await repo.useSignup(signup.id, at, tx))) throw badRequest(DISCORD_MSG.signupExpired);
          if (await repo.findByDiscordId(signup.discordId, tx)) throw conflict(DISCORD_MSG.alreadyLinkedElsewhere);
          if (confirmed && (await users.findIdByEmailKey(normalizedEmail(confirmed), tx)) !== undefined)
            throw conflict(DISCORD_MSG.emailTaken);
          return users.create(
            {
              username: body.username,
              passwordHash: null,
              role: body.role,
              email: confirmed,
              emailConfirmedAt: confirmed ? at : null,
              emailKey: confirmed ? normalizedEmail(confirmed) : null,
              profilePicture: null,
              stripeCustomerId: null,
              // Where the account is made (registration bursts), else where Discord sent the browser back.
              registeredNetwork: network ?? signup.network,
              discordId: signup.discordId,
              discordUsername: signup.discordUsername,
              locale,
              discordCreatedAt: signup.discordCreatedAt,
              discordLinkedAt: at,
            },
            tx,
          );
        });
      } catch (error) {
        // Two sign-ups of one name, or one mailbox, at once: the unique index decides.
        if (isUniqueViolation(error, 'users_email_key_idx')) throw conflict(DISCORD_MSG.emailTaken);
        if (isUniqueViolation(error)) throw conflict(MSG.usernameTaken);
        throw error;
      }
      // An address not vouched for is confirmed by our own mail, as at registration (when it can be used here at all).
      if (!confirmed && signup.email) {
        await auth.requestEmailChange(user, signup.email, undefined).catch((error: unknown) => {
          if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
        });
        user = (await users.findById(user.id)) ?? user;
      }
      return { ...(await auth.startSession(user)), returnTo: signup.returnTo };
    },

    /** Unlinks Discord, only while the account keeps a password. */
    async unlink(user: UserRow): Promise<void> {
      configured();
      if (!user.discordId) throw badRequest(DISCORD_MSG.notLinked);
      if (!(await repo.unlink(user.id, now()))) throw badRequest(DISCORD_MSG.lastWayIn);
      tell(user, 'discordUnlinked', user.discordUsername ?? '');
    },
  };
}

export type DiscordService = ReturnType<typeof discordService>;
