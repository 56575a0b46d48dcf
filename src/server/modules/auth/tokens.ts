import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { verifyHs256 } from './hs256';

/** How long an access token lives; the web app gets the next one from its refresh cookie. */
export const ACCESS_TOKEN_TTL = '2h';

/**
 * Signed access tokens: HS256 only, with the user's token version (bumped by a password change,
 * reset or logout, which ends every older token) and the login session they belong to.
 */
export interface TokenClaims {
  userId: number;
  version: number;
  /** The refresh-token family of the login that issued it; logout revokes that family. */
  sessionId?: string;
}

/** A token version as the users table holds it: a 32-bit integer from 0. */
const isTokenVersion = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0x7fffffff;

/** Signs and checks access tokens with `secret`; `ttl` is a jose duration ("2h", "-1s" in tests). */
export function createTokenService(secret: string, ttl = ACCESS_TOKEN_TTL) {
  const key = new TextEncoder().encode(secret);
  return {
    sign(claims: TokenClaims): Promise<string> {
      return (
        new SignJWT({ ver: claims.version, typ: 'access', ...(claims.sessionId ? { sid: claims.sessionId } : {}) })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject(String(claims.userId))
          .setIssuedAt()
          // A unique id per token: two tokens issued in the same second are still different tokens.
          .setJti(crypto.randomUUID())
          .setExpirationTime(ttl)
          .sign(key)
      );
    },

    /** The claims, or undefined for any token that is malformed, forged, of another kind or expired. */
    async verify(token: string): Promise<TokenClaims | undefined> {
      try {
        const payload = verifyHs256(token, key);
        if (!payload || payload.sub === undefined) return undefined;
        const userId = Number(payload.sub);
        const version = payload['ver'];
        const sessionId = payload['sid'];
        if (payload['typ'] !== 'access') return undefined;
        // The version is the account's integer column as signed; anything else is no token of ours.
        if (!Number.isSafeInteger(userId) || !isTokenVersion(version)) return undefined;
        if (sessionId !== undefined && typeof sessionId !== 'string') return undefined;
        return { userId, version, ...(sessionId ? { sessionId } : {}) };
      } catch {
        return undefined;
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
