import { LIMITS } from '../../../shared/limits';

/** A name offered from Discord's, made of what usernames may hold (`a-z 0-9 _ . -`), 3 to 24 characters. */
export function usernameBase(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '')
    .slice(0, 24);
  return ascii.length >= LIMITS.usernameMin ? ascii : `${ascii || 'player'}_rp`.slice(0, 24);
}

/** `path` with one more query parameter (the callback's redirects carry their outcome this way). */
export const withQuery = (path: string, key: string, value: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`;
