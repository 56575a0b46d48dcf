import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { tooMany } from '../errors';
import { clientKey, clientNetwork, clientSite } from '../lib/network';

/** One limit: at most `max` attempts per `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

/** Brute-force limits; tests pass their own through `build`. */
export interface RateLimitSettings {
  /** Login attempts per client (blocks with 429). */
  loginPerIp: Limit;
  /**
   * Login attempts per username from anywhere: past `max`, each attempt is slowed (never refused),
   * so a stranger guessing cannot lock the account's owner out.
   */
  loginPerUsername: Limit;
  /** Login attempts per client and username pair (blocks with 429). */
  loginPerIpAndUsername: Limit;
  registerPerIp: Limit;
  registerPerUsername: Limit;
  resetPerIp: Limit;
  resetPerUsername: Limit;
  passwordChangePerIp: Limit;
  passwordChangePerUser: Limit;
  votesPerIp: Limit;
  votesPerUser: Limit;
  /**
   * Velocity over an hour (docs/decisions/029-ranking-integrity.md): joins, likes, dislikes,
   * reviews and daily votes per IP network (IPv4 /24, IPv6 /64) and per account, and
   * registrations per network. Far above what people do, far below what a script does.
   */
  votesPerNetworkHour: Limit;
  votesPerUserHour: Limit;
  registerPerNetworkHour: Limit;
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
  /** Renewing an access token: each renewal writes a row, so a loop is cut off. */
  refreshPerIp: Limit;
  /** Registering a browser's push subscription. */
  pushSubscribePerIp: Limit;
  pushSubscribePerUser: Limit;
}

const MINUTE = 60_000;
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  loginPerUsername: { max: 10, windowMs: 15 * MINUTE },
  loginPerIpAndUsername: { max: 10, windowMs: 15 * MINUTE },
  registerPerIp: { max: 10, windowMs: 60 * MINUTE },
  registerPerUsername: { max: 5, windowMs: 60 * MINUTE },
  resetPerIp: { max: 10, windowMs: 60 * MINUTE },
  resetPerUsername: { max: 3, windowMs: 60 * MINUTE },
  passwordChangePerIp: { max: 20, windowMs: 60 * MINUTE },
  passwordChangePerUser: { max: 5, windowMs: 15 * MINUTE },
  votesPerIp: { max: 120, windowMs: MINUTE },
  votesPerUser: { max: 30, windowMs: MINUTE },
  votesPerNetworkHour: { max: 600, windowMs: 60 * MINUTE },
  votesPerUserHour: { max: 200, windowMs: 60 * MINUTE },
  registerPerNetworkHour: { max: 30, windowMs: 60 * MINUTE },
  uploadsPerIp: { max: 60, windowMs: 10 * MINUTE },
  uploadsPerUser: { max: 40, windowMs: 10 * MINUTE },
  resetConfirmPerIp: { max: 30, windowMs: 60 * MINUTE },
  resetConfirmPerUser: { max: 10, windowMs: 60 * MINUTE },
  emailChangePerIp: { max: 20, windowMs: 60 * MINUTE },
  emailChangePerUser: { max: 5, windowMs: 60 * MINUTE },
  checkoutPerIp: { max: 60, windowMs: 10 * MINUTE },
  checkoutPerUser: { max: 20, windowMs: 10 * MINUTE },
  refreshPerIp: { max: 60, windowMs: 10 * MINUTE },
  pushSubscribePerIp: { max: 30, windowMs: 60 * MINUTE },
  pushSubscribePerUser: { max: 10, windowMs: 60 * MINUTE },
};

/** The per-network limits switched off (`HOLD_RULES=off`: every client looks like one network). */
export const NO_NETWORK_LIMITS: Partial<RateLimitSettings> = {
  votesPerNetworkHour: { max: 1_000_000_000, windowMs: 60 * MINUTE },
  registerPerNetworkHour: { max: 1_000_000_000, windowMs: 60 * MINUTE },
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
  /** Longer windows on top: per IP network (IPv4 /24, IPv6 /64) and per account over an hour. */
  velocity: { perNetwork?: Limit; perAccount?: Limit } = {},
): preHandlerAsyncHookHandler {
  const byIp = app.createRateLimit({ max: perIp.max, timeWindow: perIp.windowMs, keyGenerator: (r) => `${action}:ip:${clientKey(r.ip)}` });
  const byAccount = app.createRateLimit({
    max: perAccount.max,
    timeWindow: perAccount.windowMs,
    keyGenerator: async (r) => `${action}:user:${await accountOf(r)}`,
  });
  const limiters = [byIp, byAccount];
  if (velocity.perNetwork) {
    const limit = velocity.perNetwork;
    limiters.push(
      app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, keyGenerator: (r) => `${action}:net:${clientNetwork(r.ip)}` }),
    );
  }
  if (velocity.perAccount) {
    const limit = velocity.perAccount;
    limiters.push(
      app.createRateLimit({
        max: limit.max,
        timeWindow: limit.windowMs,
        keyGenerator: async (r) => `${action}:user-hour:${await accountOf(r)}`,
      }),
    );
  }
  return async (request) => {
    const results = await Promise.all(limiters.map((limiter) => limiter(request)));
    const exceeded = results.filter((r) => !r.isAllowed && r.isExceeded);
    if (exceeded.length > 0) {
      throw tooMany(Math.max(1, ...exceeded.map((r) => (r.isAllowed ? 0 : r.ttlInSeconds))));
    }
  };
}

/** The longest a login waits once its username has seen many attempts. */
export const LOGIN_SLOWDOWN_MAX_MS = 3000;
const SLOWDOWN_FIRST_MS = 250;
// Counted with a ceiling no one reaches, so the counter only measures and never blocks.
const UNCAPPED = 1_000_000_000;

/** The delay for the `attempt`-th login of a username within the window, when `free` attempts are free. */
export function slowdownMs(attempt: number, free: number): number {
  if (attempt <= free) return 0;
  return Math.min(LOGIN_SLOWDOWN_MAX_MS, SLOWDOWN_FIRST_MS * 2 ** Math.min(attempt - free - 1, 10));
}

/**
 * Login throttle: 429 per client and per client + username pair; per username only a growing
 * delay (up to a few seconds), because a block there would let anyone lock anyone out.
 */
export function limitLogin(app: FastifyInstance, settings: RateLimitSettings): preHandlerAsyncHookHandler {
  const blocks = limitPerIpAndUsername(
    app,
    'login',
    settings.loginPerIp,
    settings.loginPerIpAndUsername,
    (r) => `${clientKey(r.ip)}:${usernameOf(r)}`,
  );
  const perUsername = app.createRateLimit({
    max: UNCAPPED,
    timeWindow: settings.loginPerUsername.windowMs,
    keyGenerator: (r) => `login-slow:user:${usernameOf(r)}`,
  });
  // One account's guesses from a whole IPv6 /48 (many /64s) count together: a few people of one
  // site may share it, so it allows a few times the pair's limit.
  const perSiteAndUsername = app.createRateLimit({
    max: settings.loginPerIpAndUsername.max * 4,
    timeWindow: settings.loginPerIpAndUsername.windowMs,
    keyGenerator: (r) => `login:site:${clientSite(r.ip)}:${usernameOf(r)}`,
  });
  return async function (this: FastifyInstance, request, reply) {
    await blocks.call(this, request, reply);
    const site = await perSiteAndUsername(request);
    if (!site.isAllowed && site.isExceeded) throw tooMany(Math.max(1, site.ttlInSeconds));
    const counted = await perUsername(request);
    const attempt = counted.isAllowed ? 0 : UNCAPPED - counted.remaining;
    const delay = slowdownMs(attempt, settings.loginPerUsername.max);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  };
}
