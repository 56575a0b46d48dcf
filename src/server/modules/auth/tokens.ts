import { SignJWT, jwtVerify } from 'jose';

/** Signed session tokens (decisions §4): HS256, with the user's token version to revoke old ones. */
export interface TokenClaims {
  userId: number;
  version: number;
}

export function createTokenService(secret: string, ttl = '7d') {
  const key = new TextEncoder().encode(secret);
  return {
    sign(claims: TokenClaims): Promise<string> {
      return new SignJWT({ ver: claims.version })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuedAt()
        .setExpirationTime(ttl)
        .sign(key);
    },

    /** The claims, or undefined for any token that is malformed, forged or expired. */
    async verify(token: string): Promise<TokenClaims | undefined> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        const version = payload['ver'];
        if (!Number.isSafeInteger(userId) || typeof version !== 'number') return undefined;
        return { userId, version };
      } catch {
        return undefined;
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
