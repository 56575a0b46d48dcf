import crypto from 'node:crypto';

/**
 * Unsubscribe tokens: the user id signed with the app's secret, so a link works without a login
 * and cannot be forged for another user. They do not expire: an old e-mail's link keeps working.
 */
export function unsubscribeTokens(secret: string) {
  const sign = (userId: number) => crypto.createHmac('sha256', secret).update(`unsubscribe:${userId}`).digest('base64url').slice(0, 32);
  return {
    create: (userId: number) => `${userId}.${sign(userId)}`,
    /** The user id of a valid token, else undefined. */
    verify(token: string): number | undefined {
      const [id, signature] = token.split('.');
      const userId = Number(id);
      if (!Number.isSafeInteger(userId) || userId <= 0 || !signature) return undefined;
      const expected = Buffer.from(sign(userId));
      const given = Buffer.from(signature);
      return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? userId : undefined;
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof unsubscribeTokens>;
