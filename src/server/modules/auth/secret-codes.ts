import crypto from 'node:crypto';

/** SHA-256 hex: how one-time codes and refresh tokens are stored (random, so no salt or slow hash is needed). */
export const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');

/** A random URL-safe code of `bytes` random bytes. */
export const randomCode = (bytes: number): string => crypto.randomBytes(bytes).toString('base64url');
