import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MSG } from '../../shared/messages';
import { unauthorized, unavailable } from '../errors';
import { bearer, currentUser } from './auth';

/** Writes that stay open in maintenance mode: admins must be able to log in and switch it off; Stripe must be heard. */
// Logging in, renewing and ending a session keep working, so nobody (the admin included) is
// logged out by maintenance; payments already made still reach us; unsubscribing always works.
const ALWAYS_OPEN = new Set([
  '/api/login',
  // Logging in with Discord, as with a password (linking, a write of its own, is not open).
  '/api/auth/discord/start',
  '/api/auth/refresh',
  '/api/auth/logout',
  '/api/logout',
  '/api/stripe/webhook',
  '/api/unsubscribe',
]);

/**
 * Maintenance mode (an admin switch): every write under /api by anyone but an admin answers 503.
 * Reads keep working, so the site stays browsable.
 */
export function registerMaintenanceMode(app: FastifyInstance): void {
  const check = async (request: FastifyRequest) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/') || ALWAYS_OPEN.has(path)) return;
    if (!(await app.ctx.settings.flag('maintenanceMode'))) return;
    const user = await currentUser(request);
    if (user?.role === 'admin') return;
    // A token its account no longer accepts is refused as on every signed-in route, before the
    // maintenance: a route that checks the account in its own statement has not refused it yet.
    if (!user && bearer(request) && request.routeOptions.config.accountCheckedByStatement) throw unauthorized(MSG.sessionExpired);
    throw unavailable(MSG.maintenance);
  };
  // A callback hook: reads (most requests) pass without a promise.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return done();
    check(request).then(() => done(), done);
  });
}
