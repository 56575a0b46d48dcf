import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema';
import type { Role } from '../../shared/roles';
import { MSG } from '../../shared/messages';
import { forbidden, unauthorized } from '../errors';

const cache = new WeakMap<FastifyRequest, Promise<UserRow | undefined>>();

/** The bearer token of the Authorization header, if any. */
export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

async function resolve(request: FastifyRequest): Promise<UserRow | undefined> {
  const token = bearer(request);
  if (!token) return undefined;
  const { tokens, activeUser } = request.server.ctx;
  const claims = await tokens.verify(token);
  if (!claims) return undefined;
  const user = await activeUser(claims.userId, claims.sessionId);
  // A password change, reset or deletion bumps or removes the version, and a logout revokes the
  // session: older tokens die with them.
  if (!user || user.tokenVersion !== claims.version) return undefined;
  return user;
}

const ANONYMOUS: Promise<UserRow | undefined> = Promise.resolve(undefined);

/** The caller, or undefined when anonymous or the token is no longer valid. Resolved once per request. */
export function currentUser(request: FastifyRequest): Promise<UserRow | undefined> {
  // No Authorization header (most reads): nothing to resolve or to remember.
  if (!request.headers.authorization) return ANONYMOUS;
  let pending = cache.get(request);
  if (!pending) {
    pending = resolve(request);
    cache.set(request, pending);
  }
  return pending;
}

/**
 * The caller, or 401. A token that was sent but no longer works says so, which makes the web
 * app clear its session; no token at all is the plain "must be logged in".
 */
export async function requireUser(request: FastifyRequest, ...roles: Role[]): Promise<UserRow> {
  const user = await currentUser(request);
  if (!user) throw unauthorized(bearer(request) ? MSG.sessionExpired : MSG.loginRequired);
  if (roles.length > 0 && !roles.includes(user.role)) throw forbidden();
  return user;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Only admins may call the route (every route under `/api/admin/` is so without saying). */
    adminOnly?: boolean;
    /** Only signed-in callers may call the route: any of them (`true`) or those of these roles. */
    signedIn?: true | readonly Role[];
  }
}

/**
 * Routes for signed-in callers (admin routes, and those whose config says `signedIn`) answer 401
 * or 403 before they read the request: a stranger or a player learns nothing of a route's rules
 * from its validation errors, nor whether an id exists, and a body is not parsed for nobody. The
 * handlers still ask for the caller themselves (the same lookup, made once per request). Added to
 * those routes alone, so no other request pays for it.
 */
export function callersFirst(app: FastifyInstance, prefix: string): void {
  const adminPrefix = `${prefix}/admin/`;
  app.addHook('onRoute', (route) => {
    const signedIn = route.config?.signedIn;
    const admin = route.url.startsWith(adminPrefix) || route.config?.adminOnly === true;
    if (!admin && signedIn === undefined) return;
    // No roles: anyone signed in.
    const roles: Role[] = admin ? ['admin'] : signedIn === true ? [] : [...(signedIn ?? [])];
    const check = async (request: FastifyRequest): Promise<void> => {
      await requireUser(request, ...roles);
    };
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [check, ...own];
  });
}
