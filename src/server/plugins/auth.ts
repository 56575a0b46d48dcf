import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema';
import type { TokenClaims } from '../modules/auth';
import type { Role } from '../../shared/roles';
import { MSG } from '../../shared/messages';
import { forbidden, unauthorized, type AppError } from '../errors';
import { endTurn, isSignedOut, rememberSignedOut, takeTurn } from './statement-checked-tokens';

const cache = new WeakMap<FastifyRequest, Promise<UserRow | undefined>>();
const claimsCache = new WeakMap<FastifyRequest, Promise<TokenClaims | undefined>>();

/** The bearer token of the Authorization header, if any. */
export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * What the caller's access token says (its signature and expiry checked), or undefined: no token,
 * or one that is forged, malformed or expired. Says nothing of whether the account still accepts
 * it (a logout, a password change): `currentUser` asks the database that. Resolved once per request.
 */
export function tokenClaims(request: FastifyRequest): Promise<TokenClaims | undefined> {
  const token = bearer(request);
  if (!token || isSignedOut(request, token)) return Promise.resolve(undefined);
  let pending = claimsCache.get(request);
  if (!pending) {
    pending = request.server.ctx.tokens.verify(token);
    claimsCache.set(request, pending);
  }
  return pending;
}

async function resolve(request: FastifyRequest): Promise<UserRow | undefined> {
  const claims = await tokenClaims(request);
  if (!claims) return undefined;
  const user = await request.server.ctx.activeUser(claims.userId, claims.sessionId);
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

/**
 * The caller's token claims, or 401 as `requireUser` answers it. For routes whose own statement
 * checks that the account still accepts the token (see `accountCheckedByStatement`).
 */
export async function requireClaims(request: FastifyRequest): Promise<TokenClaims> {
  const claims = await tokenClaims(request);
  if (!claims) throw unauthorized(bearer(request) ? MSG.sessionExpired : MSG.loginRequired);
  return claims;
}

/** A caller as a vote's own statement checks them (see `accountCheckedByStatement`). */
export interface Voter {
  userId: number;
  /** What the access token says: the account's token version and login session (null: a token of no session). */
  token: { version: number; sessionId: string | null };
  /** The account as every other signed-in route checks it, or 401: for the rare paths that need it before the vote. */
  account: () => Promise<UserRow>;
  /** The 401 to throw when the statement found the account no longer accepts the token, which is remembered. */
  signedOut: () => AppError;
}

/** The caller as a vote's statement checks them, or 401 for no token or one the app did not sign or that expired. */
export async function requireVoter(request: FastifyRequest): Promise<Voter> {
  const { userId, version, sessionId } = await requireClaims(request);
  const signedOut = () => {
    rememberSignedOut(request, bearer(request)!);
    return unauthorized(MSG.sessionExpired);
  };
  return {
    userId,
    token: { version, sessionId: sessionId ?? null },
    account: async () => {
      // The token is the app's and has not expired: no account for it means it no longer accepts it.
      const user = await currentUser(request);
      if (!user) throw signedOut();
      return user;
    },
    signedOut,
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Only admins may call the route (every route under `/api/admin/` is so without saying). */
    adminOnly?: boolean;
    /** Only signed-in callers may call the route: any of them (`true`) or those of these roles. */
    signedIn?: true | readonly Role[];
    /**
     * With `signedIn: true`: the hook checks the token alone (its signature and expiry), and the
     * handler's own statement checks the account (the token's version, its session not ended) in
     * the same round trip as its write, answering 401 from there. A vote then costs one statement,
     * not two. A token's requests take turns there, and one found signed out is refused by the hook
     * from then on (statement-checked-tokens.ts; docs/decisions/068-sign-in-check-in-the-vote.md).
     */
    accountCheckedByStatement?: true;
  }
}

/**
 * Routes for signed-in callers (admin routes, and those whose config says `signedIn`) answer 401
 * or 403 before they read the request: a stranger or a player learns nothing of a route's rules
 * from its validation errors, nor whether an id exists, and a body is not parsed for nobody. The
 * handlers still ask for the caller themselves (the same lookup, made once per request). Added to
 * those routes alone, so no other request pays for it. A route whose statement checks the account
 * (`accountCheckedByStatement`) is let through here, one request of a token at a time, with any
 * token the app signed that has not expired and was not found signed out; one its account no
 * longer accepts answers 401 from the handler, after its validation.
 */
export function callersFirst(app: FastifyInstance, prefix: string): void {
  const adminPrefix = `${prefix}/admin/`;
  app.addHook('onRoute', (route) => {
    const signedIn = route.config?.signedIn;
    const admin = route.url.startsWith(adminPrefix) || route.config?.adminOnly === true;
    if (!admin && signedIn === undefined) return;
    // No roles: anyone signed in.
    const roles: Role[] = admin ? ['admin'] : signedIn === true ? [] : [...(signedIn ?? [])];
    const byStatement = route.config?.accountCheckedByStatement === true;
    if (byStatement && (admin || roles.length > 0)) throw new Error(`${route.url}: a route with roles checks its caller's account first`);
    const check = async (request: FastifyRequest): Promise<void> => {
      if (!byStatement) {
        await requireUser(request, ...roles);
        return;
      }
      await requireClaims(request);
      // One request of a token at a time: the one before may have found it signed out.
      const token = bearer(request)!;
      await takeTurn(request, token);
      if (isSignedOut(request, token)) throw unauthorized(MSG.sessionExpired);
    };
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [check, ...own];
    if (byStatement) {
      // The turn ends once the request's answer is decided (onSend: the statement has spoken, a
      // refused token is remembered), whether or not its client is still there to read it: a client
      // that hangs up after sending its whole request never gets onResponse (the answer never
      // finishes). Not when the connection goes: a burst of a stale token's votes, each hung up at
      // once, would then all be counted. A request cut short ends it too (onRequestAbort).
      const endOnSend = async (request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> => {
        endTurn(request);
        return payload;
      };
      const endOnAbort = async (request: FastifyRequest): Promise<void> => endTurn(request);
      route.onSend = [endOnSend, ...(route.onSend === undefined ? [] : [route.onSend].flat())];
      route.onRequestAbort = [endOnAbort, ...(route.onRequestAbort === undefined ? [] : [route.onRequestAbort].flat())];
    }
  });
}
