import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { randomCode, sha256 } from './secret-codes';

const RESET_TTL_MS = 60 * 60 * 1000;
/** Wrong guesses a code survives; the next wrong one burns it, so guessing gets five tries per code. */
export const RESET_CODE_MAX_ATTEMPTS = 5;
// 9 and 18 random bytes: base64url without padding, so the lengths are fixed.
const SELECTOR_LENGTH = 12;
const VERIFIER_LENGTH = 24;

/**
 * A reset code is `selector + verifier`: the selector (stored as is) says which code a guess is
 * aimed at, so wrong guesses count against that code and its owner; the verifier is stored hashed.
 * Without having seen the mail nobody can name a code, so nobody can burn another user's code.
 */
export function parseResetCode(code: string): { selector: string; verifier: string } | undefined {
  if (code.length !== SELECTOR_LENGTH + VERIFIER_LENGTH || !/^[\w-]+$/.test(code)) return undefined;
  return { selector: code.slice(0, SELECTOR_LENGTH), verifier: code.slice(SELECTOR_LENGTH) };
}

/** Reset codes in the database: created, attributed to their owner, checked, burnt. */
export function resetCodes(db: Kysely<Database>, now: () => Date) {
  const live = (trx: Kysely<Database>, selector: string) =>
    trx
      .selectFrom('resetTokens')
      .where('selector', '=', selector)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now())
      .where('attempts', '<', RESET_CODE_MAX_ATTEMPTS);

  return {
    /** A new single-use code for `userId`, valid for an hour. */
    async create(userId: number): Promise<string> {
      const selector = randomCode(9);
      const verifier = randomCode(18);
      await db
        .insertInto('resetTokens')
        .values({ userId, selector, tokenHash: sha256(verifier), expiresAt: new Date(now().getTime() + RESET_TTL_MS) })
        .execute();
      return selector + verifier;
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
      if (row && row.tokenHash === sha256(parsed.verifier)) return true;
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
     * Uses a checked code inside `trx`: the owner's id, or undefined when a racing request used it
     * first. Every other open code of that user is closed with it.
     */
    async consume(trx: Kysely<Database>, code: string): Promise<number | undefined> {
      const parsed = parseResetCode(code);
      if (!parsed) return undefined;
      const used = await trx
        .updateTable('resetTokens')
        .set({ usedAt: now() })
        .where('selector', '=', parsed.selector)
        .where('tokenHash', '=', sha256(parsed.verifier))
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now())
        .where('attempts', '<', RESET_CODE_MAX_ATTEMPTS)
        .returning('userId')
        .executeTakeFirst();
      if (!used) return undefined;
      await trx.updateTable('resetTokens').set({ usedAt: now() }).where('userId', '=', used.userId).where('usedAt', 'is', null).execute();
      return used.userId;
    },
  };
}
