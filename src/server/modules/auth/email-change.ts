import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Mailer } from '../../adapters/mailer';
import type { UsersRepository } from '../users';
import type { EmailChangesRepository } from './email-changes.repository';
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
     * Records the pending address (replacing any earlier one) and mails the link and the notice.
     * A first address is stored at once, unconfirmed: there is no older address to protect, and the
     * account needs one for password resets; opening the link confirms it.
     */
    async request(user: UserRow, newEmail: string): Promise<void> {
      const token = randomCode(24);
      await inTransaction(async (tx) => {
        if (!user.email) await users.setUnconfirmedEmail(user.id, newEmail, now(), tx);
        await changes.closePending(user.id, now(), tx);
        await changes.insert(
          { userId: user.id, newEmail, tokenHash: sha256(token), expiresAt: new Date(now().getTime() + CONFIRM_TTL_MS) },
          tx,
        );
      });
      const link = `${publicUrl}/login?confirm-email=${encodeURIComponent(token)}`;
      const mails = [
        mailer.send({
          to: newEmail,
          subject: 'Confirm your e-mail address',
          text: [
            `Hello ${user.username},`,
            '',
            'Open this link within 24 hours to use this address for your account:',
            link,
            '',
            'If you did not ask for this, ignore this e-mail: nothing changes.',
          ].join('\n'),
        }),
      ];
      if (user.email && user.email.toLowerCase() !== newEmail.toLowerCase()) {
        mails.push(
          mailer.send({
            to: user.email,
            subject: 'Your e-mail address is being changed',
            text: [
              `Hello ${user.username},`,
              '',
              `Someone signed in to your account asked to change its e-mail address to ${newEmail}.`,
              'The change happens only when the link sent to that address is opened.',
              '',
              'If it was not you, change your password now: that ends every session on every device.',
            ].join('\n'),
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
        await users.setConfirmedEmail(used.userId, used.newEmail, at, tx);
        return used.userId;
      });
    },
  };
}
