import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { randomCode, sha256 } from './secret-codes';

/** How long a refresh token stays usable without being used; each use starts a new period. */
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A refresh token handed to the client, and the login session (family) it belongs to. */
export interface IssuedRefresh {
  token: string;
  familyId: string;
}

/** What a refresh attempt found: the session goes on, or the token was refused (and why). */
export type RotateResult = { ok: true; userId: number; refresh: IssuedRefresh } | { ok: false; reused: boolean };

/**
 * Long-lived refresh tokens, stored as SHA-256 hashes. Every use rotates: the token is marked used
 * and a new one of the same family is issued. A used token shown again was copied, so its whole
 * family is revoked, which also ends the access tokens that family issued.
 */
export function refreshTokens(db: Kysely<Database>, now: () => Date) {
  async function insert(trx: Kysely<Database>, userId: number, familyId: string): Promise<IssuedRefresh> {
    const token = randomCode(32);
    await trx
      .insertInto('refreshTokens')
      .values({ userId, familyId, tokenHash: sha256(token), expiresAt: new Date(now().getTime() + REFRESH_TTL_MS) })
      .execute();
    return { token, familyId };
  }

  async function revokeFamily(trx: Kysely<Database>, familyId: string): Promise<void> {
    await trx
      .updateTable('refreshTokens')
      .set({ revokedAt: now() })
      .where('familyId', '=', familyId)
      .where('revokedAt', 'is', null)
      .execute();
  }

  return {
    /** Starts a new login session for `userId`. */
    issue(userId: number): Promise<IssuedRefresh> {
      return insert(db, userId, crypto.randomUUID());
    },

    /** Uses `token` once: a new token of the same session, or a refusal (revoking the session on reuse). */
    async rotate(token: string): Promise<RotateResult> {
      const tokenHash = sha256(token);
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('refreshTokens').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
        if (!row || row.revokedAt || row.expiresAt <= now()) return { ok: false, reused: false };
        const claimed = await trx
          .updateTable('refreshTokens')
          .set({ usedAt: now() })
          .where('id', '=', row.id)
          .where('usedAt', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (!claimed) {
          await revokeFamily(trx, row.familyId);
          return { ok: false, reused: true };
        }
        return { ok: true, userId: row.userId, refresh: await insert(trx, row.userId, row.familyId) };
      });
    },

    /**
     * Deletes the rows of sessions that ended long ago: a row is kept a day past its expiry, by
     * when every access token its session issued (2 hours each) has expired too, so a revoked
     * session cannot come back by losing the row that says so. Returns how many went.
     */
    async prune(): Promise<number> {
      const cutoff = new Date(now().getTime() - 24 * 60 * 60 * 1000);
      const result = await db.deleteFrom('refreshTokens').where('expiresAt', '<', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Ends one login session (logout). */
    revokeFamily: (familyId: string) => revokeFamily(db, familyId),

    /** The session a refresh token belongs to, if it is one of ours. */
    async familyOf(token: string): Promise<{ familyId: string; userId: number } | undefined> {
      return db.selectFrom('refreshTokens').select(['familyId', 'userId']).where('tokenHash', '=', sha256(token)).executeTakeFirst();
    },
  };
}

export type RefreshTokens = ReturnType<typeof refreshTokens>;
