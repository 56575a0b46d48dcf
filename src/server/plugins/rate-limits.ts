import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { tooMany } from '../errors';
import { clientKey } from '../lib/network';

/** One limit: at most `max` attempts per `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

/** Brute-force limits of decisions §4; tests pass their own through `build`. */
export interface RateLimitSettings {
  loginPerIp: Limit;
  loginPerUsername: Limit;
  registerPerIp: Limit;
  registerPerUsername: Limit;
  resetPerIp: Limit;
  resetPerUsername: Limit;
  passwordChangePerIp: Limit;
  passwordChangePerUser: Limit;
  votesPerIp: Limit;
  votesPerUser: Limit;
  uploadsPerIp: Limit;
  uploadsPerUser: Limit;
  /** Setting a new password with a reset code: per client network and per account the code names. */
  resetConfirmPerIp: Limit;
  resetConfirmPerUser: Limit;
  /** Changing the e-mail address (asks for the password, so it is a guessing target too). */
  emailChangePerIp: Limit;
  emailChangePerUser: Limit;
  /** Starting a checkout (each one creates a Stripe session). */
  checkoutPerIp: Limit;
  checkoutPerUser: Limit;
  /** Registering a browser's push subscription. */
  pushSubscribePerIp: Limit;
  pushSubscribePerUser: Limit;
}

const MINUTE = 60_000;
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  loginPerUsername: { max: 10, windowMs: 15 * MINUTE },
  registerPerIp: { max: 10, windowMs: 60 * MINUTE },
  registerPerUsername: { max: 5, windowMs: 60 * MINUTE },
  resetPerIp: { max: 10, windowMs: 60 * MINUTE },
  resetPerUsername: { max: 3, windowMs: 60 * MINUTE },
  passwordChangePerIp: { max: 20, windowMs: 60 * MINUTE },
  passwordChangePerUser: { max: 5, windowMs: 15 * MINUTE },
  votesPerIp: { max: 120, windowMs: MINUTE },
  votesPerUser: { max: 30, windowMs: MINUTE },
  uploadsPerIp: { max: 60, windowMs: 10 * MINUTE },
  uploadsPerUser: { max: 40, windowMs: 10 * MINUTE },
  resetConfirmPerIp: { max: 30, windowMs: 60 * MINUTE },
  resetConfirmPerUser: { max: 10, windowMs: 60 * MINUTE },
  emailChangePerIp: { max: 20, windowMs: 60 * MINUTE },
  emailChangePerUser: { max: 5, windowMs: 60 * MINUTE },
  checkoutPerIp: { max: 60, windowMs: 10 * MINUTE },
  checkoutPerUser: { max: 20, windowMs: 10 * MINUTE },
  pushSubscribePerIp: { max: 30, windowMs: 60 * MINUTE },
  pushSubscribePerUser: { max: 10, windowMs: 60 * MINUTE },
};

/** The username a login, register or reset names in its body: what brute force targets. */
export function usernameOf(request: FastifyRequest): string {
  const body = request.body as { username?: unknown } | undefined;
  return typeof body?.username === 'string' ? body.username.trim().toLowerCase().slice(0, 64) : '';
}

/**
 * A preHandler for one action, limited per client (IPv4 address, IPv6 /64) and per account (by default the username in the
 * body), answering 429 with Retry-After. The counters live in memory, or in Redis when REDIS_URL
 * is set so every instance shares them.
 */
export function limitPerIpAndUsername(
  app: FastifyInstance,
  action: string,
  perIp: Limit,
  perAccount: Limit,
  accountOf: (request: FastifyRequest) => string | Promise<string> = usernameOf,
): preHandlerAsyncHookHandler {
  const byIp = app.createRateLimit({ max: perIp.max, timeWindow: perIp.windowMs, keyGenerator: (r) => `${action}:ip:${clientKey(r.ip)}` });
  const byAccount = app.createRateLimit({
    max: perAccount.max,
    timeWindow: perAccount.windowMs,
    keyGenerator: async (r) => `${action}:user:${await accountOf(r)}`,
  });
  return async (request) => {
    const results = await Promise.all([byIp(request), byAccount(request)]);
    const exceeded = results.filter((r) => !r.isAllowed && r.isExceeded);
    if (exceeded.length > 0) {
      throw tooMany(Math.max(1, ...exceeded.map((r) => (r.isAllowed ? 0 : r.ttlInSeconds))));
    }
  };
}
