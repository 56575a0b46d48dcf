import crypto from 'node:crypto';

/** A JWT's claims once its signature and times are checked. */
export type JwtPayload = Record<string, unknown> & { exp: number; sub?: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeJson(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks an HS256 JWT as jose's `jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims:
 * ['exp'] })` does, synchronously with node:crypto: jose checks HMACs through WebCrypto, whose
 * asynchronous job took a tenth of the app's time under a stream of votes (every authenticated
 * request checks a token). Signing stays with jose. Undefined for anything else: another or no
 * algorithm, a header with `crit` or other fields, a signature that is not the one canonical
 * encoding, a payload that is not an object, a missing or past `exp`, a future `nbf`, a
 * non-numeric `iat`, a non-string `sub`. Parity with jose is tested (test/token-verify.test.ts).
 */
export function verifyHs256(token: string, key: Uint8Array, nowSeconds = Math.floor(Date.now() / 1000)): JwtPayload | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [head, body, signature] = parts as [string, string, string];
  if (!BASE64URL.test(head) || !BASE64URL.test(body) || !BASE64URL.test(signature)) return undefined;

  const expected = crypto.createHmac('sha256', key).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  // One encoding only: trailing bits that decode to the same bytes are another token.
  if (given.length !== expected.length || given.toString('base64url') !== signature) return undefined;
  if (!crypto.timingSafeEqual(given, expected)) return undefined;

  let header: unknown;
  let payload: unknown;
  try {
    header = decodeJson(head);
    payload = decodeJson(body);
  } catch {
    return undefined;
  }
  if (!isObject(header) || header['alg'] !== 'HS256') return undefined;
  if (Object.keys(header).some((k) => k !== 'alg' && k !== 'typ' && k !== 'kid')) return undefined;
  if (!isObject(payload)) return undefined;

  const { exp, nbf, iat, sub } = payload;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= nowSeconds) return undefined;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds)) return undefined;
  if (iat !== undefined && typeof iat !== 'number') return undefined;
  if (sub !== undefined && typeof sub !== 'string') return undefined;
  return payload as JwtPayload;
}
