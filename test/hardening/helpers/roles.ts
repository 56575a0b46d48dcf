import type { Operation } from './openapi';

/** Who may call an operation. Anything not listed below needs a logged-in user (deny by default). */
export type Audience = 'public' | 'user' | 'owner' | 'admin';

/**
 * Operations open to anonymous callers, each for a reason. A new route that is not listed here must
 * answer 401 without a token; that is how the suite covers it without being told.
 */
export const PUBLIC_OPERATIONS: Record<string, string> = {
  'GET /api/health': 'liveness probe',
  'GET /api/ready': 'readiness probe',
  'POST /api/register': 'creating an account',
  'POST /api/login': 'logging in',
  'POST /api/reset-password/request': 'asking for a reset code (always the same answer)',
  'POST /api/reset-password': 'setting a password with a reset code (the code is the credential)',
  'GET /api/player-count': 'public figure on the landing page',
  'GET /api/servers': 'the public list',
  'GET /api/servers/just-joined': 'the public list',
  'GET /api/server-of-the-weekend': 'the public list',
  'GET /api/servers/{id}': 'a public server page',
  'GET /api/servers/{id}/reviews': 'public reviews of a server',
  'GET /api/servers/{id}/history': 'public player-count history of a server',
  'GET /api/filters/categories': 'search filters',
  'GET /api/testimonials': 'public testimonials',
  'GET /api/games': 'the list of supported games',
  'GET /api/push/public-key': 'the VAPID public key the browser needs before subscribing',
  'GET /api/notifications': 'an anonymous visitor sees an empty inbox',
  'POST /api/unsubscribe': 'the signed link in an e-mail is the credential',
  'POST /api/users/confirm-email': 'the signed link in an e-mail is the credential',
  'POST /api/auth/refresh': 'the refresh cookie is the credential',
  'POST /api/logout': 'logging out without a session does nothing',
  'POST /api/auth/logout': 'logging out without a session does nothing',
  'GET /api/servers/{id}/events': "a server's announced events are public",
  'GET /api/servers/{id}/follow': 'the follower count is public (anonymous: not following)',
  'GET /api/rankings/votes': 'the monthly ranking',
  'GET /servers/{id}/banner.svg': 'a banner any site may embed',
  'GET /servers/{id}/banner.png': 'a banner any site may embed',
  'GET /api/auth/discord': 'whether sign-in with Discord is offered (the login page asks)',
  'POST /api/auth/discord/start': 'starting a sign-in with Discord, before there is an account',
  'GET /api/auth/discord/callback': "Discord's return: the browser-bound state is the credential",
  'POST /api/auth/discord/signup/info': 'a sign-up in progress: its token and browser-bound cookie are the credential',
  'POST /api/auth/discord/signup': 'creating an account with Discord: its token and browser-bound cookie are the credential',
};

/** Operations outside `/api/admin` that only an admin may call. */
export const ADMIN_OPERATIONS = new Set(['POST /api/notifications']);

/** Operations only server owners (and not players) may call. */
export const OWNER_OPERATIONS = new Set([
  'POST /api/servers',
  'PUT /api/servers/{id}/customize',
  'POST /api/servers/{id}/upload-profile',
  'POST /api/servers/{id}/upload-banner',
  'POST /api/servers/{id}/upload-gallery',
  'DELETE /api/servers/{id}/gallery',
  'POST /api/notifications/send-mass',
  'GET /api/stats/servers/{id}',
  'POST /api/testimonials',
  'GET /api/servers/{id}/game',
  'PUT /api/servers/{id}/game',
  'POST /api/servers/{id}/game/check',
  'DELETE /api/servers/{id}/game',
  'POST /api/subscribe-session',
  'POST /api/boost-session',
  'POST /api/boost-credits',
  'POST /api/weekend-session',
  'GET /api/servers/{id}/votes/daily',
  'GET /api/servers/{id}/rewards',
  'PUT /api/servers/{id}/rewards/webhook',
  'DELETE /api/servers/{id}/rewards/webhook',
  'PUT /api/servers/{id}/rewards/votifier',
  'DELETE /api/servers/{id}/rewards/votifier',
  'POST /api/servers/{id}/rewards/test',
  'GET /api/servers/{id}/api-keys',
  'POST /api/servers/{id}/api-keys',
  'DELETE /api/servers/{id}/api-keys/{keyId}',
  'POST /api/servers/{id}/events',
]);

/** The audience of an operation: everything under `/api/admin` is admin-only by its path alone. */
export function audienceOf(op: Operation): Audience {
  if (op.path.startsWith('/api/admin/') || op.path === '/api/admin' || ADMIN_OPERATIONS.has(op.key)) return 'admin';
  if (OWNER_OPERATIONS.has(op.key)) return 'owner';
  if (op.key in PUBLIC_OPERATIONS) return 'public';
  return 'user';
}
