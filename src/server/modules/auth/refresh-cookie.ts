import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_TTL_MS } from './refresh-tokens';

/**
 * The refresh token's cookie: httpOnly, SameSite=Strict. On an https site it is
 * `__Host-rp_refresh` with `Path=/` and `Secure`: the browser then refuses it from any subdomain or
 * plain-http page (a cookie set by `evil.example.com` or over http cannot shadow it). A plain-http
 * site (development) keeps `rp_refresh`, sent only to the session endpoints.
 */
export const REFRESH_COOKIE = 'rp_refresh';
export const HOST_REFRESH_COOKIE = '__Host-rp_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';

const isHttps = (publicUrl: string) => publicUrl.startsWith('https://');

function cookie(publicUrl: string, value: string, maxAgeSeconds: number): string {
  const attributes = isHttps(publicUrl)
    ? ['Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, 'Secure']
    : [`Path=${REFRESH_COOKIE_PATH}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  return `${isHttps(publicUrl) ? HOST_REFRESH_COOKIE : REFRESH_COOKIE}=${value}; ${attributes.join('; ')}`;
}

/** Sets the refresh cookie. */
export function setRefreshCookie(reply: FastifyReply, token: string, publicUrl: string): void {
  reply.header('set-cookie', cookie(publicUrl, token, Math.floor(REFRESH_TTL_MS / 1000)));
}

/** Removes the refresh cookie (logout, refused refresh), and on https the older unprefixed one too. */
export function clearRefreshCookie(reply: FastifyReply, publicUrl: string): void {
  const cleared = [cookie(publicUrl, '', 0)];
  if (isHttps(publicUrl)) cleared.push(`${REFRESH_COOKIE}=; Path=${REFRESH_COOKIE_PATH}; HttpOnly; SameSite=Strict; Max-Age=0; Secure`);
  reply.header('set-cookie', cleared);
}

/** The refresh token the browser sent, if any (the prefixed cookie first; a session from before it still works). */
export function readRefreshCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const found = new Map<string, string>();
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === HOST_REFRESH_COOKIE || name === REFRESH_COOKIE) found.set(name, rest.join('='));
  }
  const value = found.get(HOST_REFRESH_COOKIE) ?? found.get(REFRESH_COOKIE);
  return value !== undefined && /^[\w-]{20,100}$/.test(value) ? value : undefined;
}
