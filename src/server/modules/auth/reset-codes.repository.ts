import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import { RESET_CODE_MAX_ATTEMPTS, RESET_TTL_MS, newResetCode, parseResetCode } from './reset-codes';

/**
 * Password reset codes in the database: created, attributed to their owner, checked, burnt. A
 * code is looked up by its selector and matched by its verifier's hash, so the plain code is all
 * this takes; `now` decides which codes are still live.
 */
export function resetCodesRepository(db: Kysely<Database>, now: () => Date) {
  const live = (tx: Executor, selector: string) =>
    tx
      .selectFrom('resetTokens')
      .where('selector', '=', selector)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now())
      .where('attempts', '<', RESET_CODE_MAX_ATTEMPTS);

  return {
    /** A new single-use code for `userId`, valid for an hour. */
    async create(userId: number, tx: Executor = db): Promise<string> {
      const { code, selector, verifierHash } = newResetCode();
      await tx
        .insertInto('resetTokens')
        .values({ userId, selector, tokenHash: verifierHash, expiresAt: new Date(now().getTime() + RESET_TTL_MS) })
        .execute();
      return code;
    },

    /** Whose code a guess names (for per-account throttling), or undefined when it names none. */
    async ownerOf(code: string): Promise<number | undefined> {
      const parsed = parseResetCode(code);
      if (!parsed) return undefined;
      const row = await db.selectFrom('resetTokens').select('userId').where('selector', '=', parsed.selector).executeTakeFirst();
      return row?.userId;
    },

    /** True when `code` is live and right; a wrong verifier counts a try against the code it names. */
    async check(code: string): Promise<boolean> {
      const parsed = parseResetCode(code);
      if (!parsed) return false;
      const row = await live(db, parsed.selector).select('tokenHash').executeTakeFirst();
      if (row && row.tokenHash === parsed.verifierHash) return true;
      await db
        .updateTable('resetTokens')
        .set({
          attempts: sql`attempts + 1`,
          usedAt: sql`CASE WHEN attempts + 1 >= ${RESET_CODE_MAX_ATTEMPTS} THEN CAST(${now().toISOString()} AS timestamptz) ELSE NULL END`,
        })
        .where('selector', '=', parsed.selector)
        .where('usedAt', 'is', null)
        .execute();
      return false;
    },

    /**
     * Uses a checked code (inside the caller's transaction): the owner's id, or undefined when a
     * racing request used it first. Every other open code of that user is closed with it.
     */
    async consume(code: string, tx: Executor = db): Promise<number | undefined> {
      const parsed = parseResetCode(code);
      if (!parsed) return undefined;
      const used = await tx
        .updateTable('resetTokens')
        .set({ usedAt: now() })
        .where('selector', '=', parsed.selector)
        .where('tokenHash', '=', parsed.verifierHash)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now())
        .where('attempts', '<', RESET_CODE_MAX_ATTEMPTS)
        .returning('userId')
        .executeTakeFirst();
      if (!used) return undefined;
      await tx.updateTable('resetTokens').set({ usedAt: now() }).where('userId', '=', used.userId).where('usedAt', 'is', null).execute();
      return used.userId;
    },
  };
}

export type ResetCodesRepository = ReturnType<typeof resetCodesRepository>;
