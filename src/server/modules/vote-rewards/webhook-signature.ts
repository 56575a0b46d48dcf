import crypto from 'node:crypto';

/** The header that signs a webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as Stripe does. */
export const SIGNATURE_HEADER = 'x-rp-signature';

/** A new signing secret: shown to the owner once, kept to sign. */
export const newWebhookSecret = (): string => `whsec_${crypto.randomBytes(24).toString('base64url')}`;

/** The signature header's value for a body sent at `unixSeconds`. */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * What a receiver does (and our tests): the signature matches and is at most `toleranceSeconds`
 * old, compared in constant time.
 */
export function verifyWebhook(secret: string, body: string, header: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || !parts.v1) return false;
  const expected = Buffer.from(signWebhook(secret, body, t).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
