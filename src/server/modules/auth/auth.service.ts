import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Mailer } from '../../adapters/mailer';
import type { RegisterBody, LoginBody } from '../../../shared/schemas/auth';
import { MSG } from '../../../shared/messages';
import { AppError, conflict, isUniqueViolation } from '../../errors';
import { usersRepository } from '../users/users.repository';
import { burnVerifyTime, hashPassword, verifyPassword } from './password';
import type { TokenService } from './tokens';

const RESET_TTL_MS = 60 * 60 * 1000;
const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

interface Deps {
  db: Kysely<Database>;
  tokens: TokenService;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
  /** Where a failed background e-mail is reported. */
  onMailError: (error: unknown) => void;
}

/** Registration, login, password reset and e-mail changes (spec §4, §5; decisions §4). */
export function authService({ db, tokens, mailer, publicUrl, now, onMailError }: Deps) {
  const users = usersRepository(db);
  const session = async (user: UserRow) => ({ user, token: await tokens.sign({ userId: user.id, version: user.tokenVersion }) });

  return {
    async register(body: RegisterBody) {
      if (await users.findByUsername(body.username)) throw conflict(MSG.usernameTaken);
      const passwordHash = await hashPassword(body.password);
      try {
        const user = await users.create({
          username: body.username,
          passwordHash,
          role: body.role,
          email: null,
          profilePicture: null,
          stripeCustomerId: null,
        });
        return session(user);
      } catch (error) {
        // Two registrations of one name at once: the unique index decides, the loser gets 409.
        if (isUniqueViolation(error)) throw conflict(MSG.usernameTaken);
        throw error;
      }
    },

    async login(body: LoginBody) {
      const user = await users.findByUsername(body.username);
      if (!user) {
        await burnVerifyTime(body.password);
        throw new AppError(401, MSG.invalidCredentials);
      }
      if (!(await verifyPassword(user.passwordHash, body.password))) throw new AppError(401, MSG.invalidCredentials);
      return session(user);
    },

    /**
     * Always the same answer, whether or not the user exists or has an address (decisions §4).
     * The mail goes out in the background, so the answer's timing does not tell either.
     */
    async requestReset(username: string): Promise<void> {
      const user = await users.findByUsername(username);
      if (!user?.email) return;
      const token = crypto.randomBytes(18).toString('base64url');
      await db
        .insertInto('resetTokens')
        .values({ userId: user.id, tokenHash: sha256(token), expiresAt: new Date(now().getTime() + RESET_TTL_MS) })
        .execute();
      const link = `${publicUrl}/login?reset=${encodeURIComponent(token)}`;
      void mailer
        .send({
          to: user.email,
          subject: 'Reset your password',
          text: [
            `Hello ${user.username},`,
            '',
            'Someone asked to reset the password of your account. If it was you, open this link within one hour:',
            link,
            '',
            `Or enter this code in the Reset Password dialog: ${token}`,
            '',
            'If it was not you, ignore this e-mail: your password stays as it is.',
          ].join('\n'),
        })
        .catch(onMailError);
    },

    /** Uses the token once, sets the password and revokes every older session, all in one transaction. */
    async resetPassword(token: string, newPassword: string): Promise<void> {
      const passwordHash = await hashPassword(newPassword);
      const done = await db.transaction().execute(async (trx) => {
        const used = await trx
          .updateTable('resetTokens')
          .set({ usedAt: now() })
          .where('tokenHash', '=', sha256(token))
          .where('usedAt', 'is', null)
          .where('expiresAt', '>', now())
          .returning('userId')
          .executeTakeFirst();
        if (!used) return false;
        await usersRepository(trx).setPassword(used.userId, passwordHash, trx);
        await trx.updateTable('resetTokens').set({ usedAt: now() }).where('userId', '=', used.userId).where('usedAt', 'is', null).execute();
        return true;
      });
      if (!done) throw new AppError(400, MSG.resetTokenInvalid);
    },

    /** Changes the password and answers a fresh session: every older token stops working (decisions §4). */
    async changePassword(user: UserRow, currentPassword: string, newPassword: string) {
      if (!(await verifyPassword(user.passwordHash, currentPassword))) throw new AppError(400, MSG.currentPasswordWrong);
      await users.setPassword(user.id, await hashPassword(newPassword));
      const updated = await users.findById(user.id);
      if (!updated) throw new AppError(401, MSG.sessionExpired);
      return session(updated);
    },

    async updateEmail(userId: number, email: string): Promise<UserRow> {
      const user = await users.updateEmail(userId, email);
      if (!user) throw new AppError(401, MSG.sessionExpired);
      return user;
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
