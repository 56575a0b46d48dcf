import { langParam, mailText } from '../../i18n/mail-text';
import { serverT } from '../../i18n/translate';
import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Mailer } from '../../adapters/mailer';
import type { UsersRepository } from '../users';
import type { EmailChangesRepository } from './email-changes.repository';
import { MSG } from '../../../shared/messages';
import { badRequest, conflict, isUniqueViolation } from '../../errors';
import { isDisposableEmail, normalizedEmail } from '../../lib/email-address';
import { randomCode, sha256 } from './secret-codes';

const CONFIRM_TTL_MS = 24 * 60 * 60 * 1000;

interface Deps {
  users: UsersRepository;
  changes: EmailChangesRepository;
  inTransaction: InTransaction;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
  onMailError: (error: unknown) => void;
}

/**
 * A new e-mail address takes effect only once the link mailed to it is opened (single use, a day,
 * stored hashed); the old address is told, so a hijacked session cannot quietly move the account.
 */
export function emailChanges({ users, changes, inTransaction, mailer, publicUrl, now, onMailError }: Deps) {
  return {
    /**
     * One account per mailbox: an address at a disposable-mail domain answers 400, one whose mailbox
     * (compared normalised: case, `+tags`, Gmail dots) another account confirmed answers 409.
     */
    async assertAcceptable(userId: number | undefined, email: string): Promise<void> {
      if (isDisposableEmail(email)) throw badRequest(MSG.emailDisposable);
      const holder = await users.findIdByEmailKey(normalizedEmail(email));
      if (holder !== undefined && holder !== userId) throw conflict(MSG.emailTaken);
    },

    /**
     * Records the pending address (replacing any earlier one) and mails the link and the notice.
     * A first address, or one replacing an unconfirmed one, is stored at once, unconfirmed: there is
     * no confirmed address to protect, and the account needs one for password resets; opening the
     * link confirms it.
     */
    async request(user: UserRow, newEmail: string): Promise<void> {
      const token = randomCode(24);
      const confirmedEmail = user.emailConfirmedAt ? user.email : null;
      await inTransaction(async (tx) => {
        if (!confirmedEmail) await users.setUnconfirmedEmail(user.id, newEmail, now(), tx);
        await changes.closePending(user.id, now(), tx);
        await changes.insert(
          { userId: user.id, newEmail, tokenHash: sha256(token), expiresAt: new Date(now().getTime() + CONFIRM_TTL_MS) },
          tx,
        );
      });
      const link = `${publicUrl}/login?confirm-email=${encodeURIComponent(token)}${langParam(user.locale)}`;
      const t = serverT(user.locale);
      const mails = [
        mailer.send({
          to: newEmail,
          subject: t('email.confirm.subject'),
          text: mailText(t, user.username, t('email.confirm.body', { link })),
        }),
      ];
      if (confirmedEmail && confirmedEmail.toLowerCase() !== newEmail.toLowerCase()) {
        mails.push(
          mailer.send({
            to: confirmedEmail,
            subject: t('email.changing.subject'),
            text: mailText(t, user.username, t('email.changing.body', { email: newEmail })),
          }),
        );
      }
      for (const mail of mails) void mail.catch(onMailError);
    },

    /** Applies the address of a live link once; the user id, or undefined for a bad, used or expired link. */
    async confirm(token: string): Promise<number | undefined> {
      return inTransaction(async (tx) => {
        const at = now();
        const used = await changes.use(sha256(token), at, tx);
        if (!used) return undefined;
        try {
          await users.setConfirmedEmail(used.userId, used.newEmail, normalizedEmail(used.newEmail), at, tx);
        } catch (error) {
          // Two accounts confirming one mailbox: the first keeps it; the link stays unused.
          if (isUniqueViolation(error)) throw conflict(MSG.emailTaken);
          throw error;
        }
        return used.userId;
      });
    },
  };
}
