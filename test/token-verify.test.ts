import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwtVerify, SignJWT } from 'jose';
import { verifyHs256 } from '../src/server/modules/auth/hs256';
import { createTokenService } from '../src/server/modules/auth';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!!';
const key = new TextEncoder().encode(SECRET);
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const hmac = (input: string, with_: Uint8Array = key) => crypto.createHmac('sha256', with_).update(input).digest('base64url');
const signed = (header: unknown, payload: unknown) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${hmac(input)}`;
};

/** What jose's own check answers for the token, with the options the app used before. */
async function joseAccepts(token: string): Promise<boolean> {
  try {
    await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    return true;
  } catch {
    return false;
  }
}

describe('checking an access token without WebCrypto', () => {
  it('accepts what jose signs, and refuses every tampered, foreign or stale variant jose refuses', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: '7', ver: 2, typ: 'access', iat: now, exp: now + 3600 };
    const good = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
    const [head, body, signature] = good.split('.') as [string, string, string];
    const variants: Record<string, string> = {
      'alg none': `${b64({ alg: 'none' })}.${body}.`,
      'HS512 with the right key': await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key),
      'HS256 with another key': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(48).fill(7)),
      'RS256 header, HMAC signature': signed({ alg: 'RS256' }, claims),
      'alg in lower case': signed({ alg: 'hs256' }, claims),
      'crit header': signed({ alg: 'HS256', crit: ['b64'], b64: false }, claims),
      'payload swapped, signature kept': `${head}.${b64({ ...claims, sub: '1' })}.${signature}`,
      'signature stripped': `${head}.${body}.`,
      'signature with a trailing character': `${good}A`,
      'signature in standard base64': `${head}.${body}.${Buffer.from(signature, 'base64url').toString('base64')}`,
      'four parts': `${good}.x`,
      'two parts': `${head}.${body}`,
      'padding in the payload': `${head}.${body}=.${signature}`,
      expired: signed({ alg: 'HS256' }, { ...claims, exp: now - 1 }),
      'expiring this second': signed({ alg: 'HS256' }, { ...claims, exp: now }),
      'no expiry': signed({ alg: 'HS256' }, { sub: '7', ver: 2, typ: 'access' }),
      'expiry as a string': signed({ alg: 'HS256' }, { ...claims, exp: String(now + 3600) }),
      'not before an hour from now': signed({ alg: 'HS256' }, { ...claims, nbf: now + 3600 }),
      'issued-at as a string': signed({ alg: 'HS256' }, { ...claims, iat: 'today' }),
      'subject as a number': signed({ alg: 'HS256' }, { ...claims, sub: 7 }),
      'payload an array': signed({ alg: 'HS256' }, [claims]),
      'payload not JSON': `${b64({ alg: 'HS256' })}.${b64('{sub')}.${hmac(`${b64({ alg: 'HS256' })}.${b64('{sub')}`)}`,
      'header not JSON': `${b64('alg')}.${body}.${hmac(`${b64('alg')}.${body}`)}`,
      garbage: 'not.a.token',
      empty: '',
    };
    expect(verifyHs256(good, key)).toMatchObject(claims);
    expect(await joseAccepts(good)).toBe(true);
    const accepted: string[] = [];
    for (const [name, token] of Object.entries(variants)) {
      if (verifyHs256(token, key)) accepted.push(name);
      // Never looser than jose: whatever it refuses is refused here too.
      if (!(await joseAccepts(token))) expect(verifyHs256(token, key), name).toBeUndefined();
    }
    expect(accepted).toEqual([]);
  });

  it('still accepts a token jose would for the fields jose allows in a header (typ, kid)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = signed({ alg: 'HS256', typ: 'JWT', kid: 'k1' }, { sub: '3', exp: now + 60, nbf: now - 1 });
    expect(await joseAccepts(token)).toBe(true);
    expect(verifyHs256(token, key)).toMatchObject({ sub: '3' });
  });

  it('signs with jose and reads its own tokens back through the service', async () => {
    const tokens = createTokenService(SECRET);
    const token = await tokens.sign({ userId: 12, version: 4, sessionId: 'family-1' });
    expect(await tokens.verify(token)).toEqual({ userId: 12, version: 4, sessionId: 'family-1' });
    expect(await tokens.verify(token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toBeUndefined();
  });

  it('reads a version only as the accounts table holds one: a 32-bit integer from 0', async () => {
    const tokens = createTokenService(SECRET);
    const now = Math.floor(Date.now() / 1000);
    const withVersion = (ver: unknown) => signed({ alg: 'HS256', typ: 'JWT' }, { sub: '12', ver, typ: 'access', exp: now + 60 });
    expect(await tokens.verify(withVersion(0))).toEqual({ userId: 12, version: 0 });
    expect(await tokens.verify(withVersion(2147483647))).toEqual({ userId: 12, version: 2147483647 });
    for (const ver of [1.5, -1, 2147483648, 1e30, '1', null]) expect(await tokens.verify(withVersion(ver)), String(ver)).toBeUndefined();
  });
});
