import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_TTL_MS } from './refresh-tokens';

/** The refresh token's cookie: httpOnly, SameSite=Strict, only sent to the session endpoints. */
export const REFRESH_COOKIE = 'rp_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';

function attributes(secure: boolean, maxAgeSeconds: number): string {
  return [`Path=${REFRESH_COOKIE_PATH}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join(
    '; ',
  );
}

/** Sets the refresh cookie; `Secure` when the site is served over https. */
export function setRefreshCookie(reply: FastifyReply, token: string, publicUrl: string): void {
  const secure = publicUrl.startsWith('https://');
  reply.header('set-cookie', `${REFRESH_COOKIE}=${token}; ${attributes(secure, Math.floor(REFRESH_TTL_MS / 1000))}`);
}

/** Removes the refresh cookie (logout, refused refresh). */
export function clearRefreshCookie(reply: FastifyReply, publicUrl: string): void {
  reply.header('set-cookie', `${REFRESH_COOKIE}=; ${attributes(publicUrl.startsWith('https://'), 0)}`);
}

/** The refresh token the browser sent, if any. */
export function readRefreshCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === REFRESH_COOKIE) {
      const value = rest.join('=');
      return /^[\w-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}
