import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** Pending e-mail address changes in the database, each waiting for its mailed link (stored hashed). */
export function emailChangesRepository(db: Kysely<Database>) {
  return {
    /** Closes every pending change of a user: only the newest link may work. */
    async closePending(userId: number, at: Date, tx: Executor = db): Promise<void> {
      await tx.updateTable('emailChanges').set({ usedAt: at }).where('userId', '=', userId).where('usedAt', 'is', null).execute();
    },

    async insert(change: { userId: number; newEmail: string; tokenHash: string; expiresAt: Date }, tx: Executor = db): Promise<void> {
      await tx.insertInto('emailChanges').values(change).execute();
    },

    /**
     * Uses the live change a link's hash names, once: its user and address, or undefined for a bad,
     * used or expired link. Of two racing uses only one gets it.
     */
    use(tokenHash: string, at: Date, tx: Executor = db): Promise<{ userId: number; newEmail: string } | undefined> {
      return tx
        .updateTable('emailChanges')
        .set({ usedAt: at })
        .where('tokenHash', '=', tokenHash)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', at)
        .returning(['userId', 'newEmail'])
        .executeTakeFirst();
    },
  };
}

export type EmailChangesRepository = ReturnType<typeof emailChangesRepository>;
