import crypto from 'node:crypto';
import type { InTransaction, Tx } from '../../db/transaction';
import { randomCode, sha256 } from './secret-codes';
import type { SessionsRepository } from './sessions.repository';

/** How long a refresh token stays usable without being used; each use starts a new period. */
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A refresh token handed to the client, and the login session (family) it belongs to. */
export interface IssuedRefresh {
  token: string;
  familyId: string;
}

/** What a refresh attempt found: the session goes on, or the token was refused (and why). */
export type RotateResult = { ok: true; userId: number; refresh: IssuedRefresh } | { ok: false; reused: boolean };

interface Deps {
  sessions: SessionsRepository;
  inTransaction: InTransaction;
  now: () => Date;
}

/**
 * Long-lived refresh tokens, stored as SHA-256 hashes. Every use rotates: the token is marked used
 * and a new one of the same family is issued. A used token shown again was copied, so its whole
 * family is revoked, which also ends the access tokens that family issued.
 */
export function refreshTokens({ sessions, inTransaction, now }: Deps) {
  async function insert(userId: number, familyId: string, tx?: Tx): Promise<IssuedRefresh> {
    const token = randomCode(32);
    await sessions.insert({ userId, familyId, tokenHash: sha256(token), expiresAt: new Date(now().getTime() + REFRESH_TTL_MS) }, tx);
    return { token, familyId };
  }

  return {
    /** Starts a new login session for `userId`. */
    issue(userId: number): Promise<IssuedRefresh> {
      return insert(userId, crypto.randomUUID());
    },

    /**
     * Uses `token` once: a new token of the same session, or a refusal (revoking the session on
     * reuse). Lookup, claim and revoke-or-issue share one transaction.
     */
    async rotate(token: string): Promise<RotateResult> {
      const tokenHash = sha256(token);
      return inTransaction(async (tx): Promise<RotateResult> => {
        const row = await sessions.findByHash(tokenHash, tx);
        if (!row || row.revokedAt || row.expiresAt <= now()) return { ok: false, reused: false };
        if (!(await sessions.claim(row.id, now(), tx))) {
          await sessions.revokeFamily(row.familyId, now(), tx);
          return { ok: false, reused: true };
        }
        return { ok: true, userId: row.userId, refresh: await insert(row.userId, row.familyId, tx) };
      });
    },

    /**
     * Deletes the rows of sessions that ended long ago: a row is kept a day past its expiry, by
     * when every access token its session issued (2 hours each) has expired too, so a revoked
     * session cannot come back by losing the row that says so. Returns how many went.
     */
    prune(): Promise<number> {
      return sessions.deleteExpiredBefore(new Date(now().getTime() - 24 * 60 * 60 * 1000));
    },

    /** Ends one login session (logout). */
    revokeFamily: (familyId: string) => sessions.revokeFamily(familyId, now()),

    /** The session a refresh token belongs to, if it is one of ours. */
    familyOf: (token: string) => sessions.findFamily(sha256(token)),
  };
}

export type RefreshTokens = ReturnType<typeof refreshTokens>;
