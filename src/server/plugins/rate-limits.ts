import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { MSG } from '../../shared/messages';

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
}

const MINUTE = 60_000;
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  loginPerUsername: { max: 10, windowMs: 15 * MINUTE },
  registerPerIp: { max: 10, windowMs: 60 * MINUTE },
  registerPerUsername: { max: 5, windowMs: 60 * MINUTE },
  resetPerIp: { max: 10, windowMs: 60 * MINUTE },
  resetPerUsername: { max: 3, windowMs: 60 * MINUTE },
};

function usernameOf(request: FastifyRequest): string {
  const body = request.body as { username?: unknown } | undefined;
  return typeof body?.username === 'string' ? body.username.trim().toLowerCase().slice(0, 64) : '';
}

/**
 * preHandlers for one action, limited per IP and per username, answering 429 with Retry-After.
 * The counters live in memory, or in Redis when REDIS_URL is set so every instance shares them.
 */
export function limitPerIpAndUsername(app: FastifyInstance, action: string, perIp: Limit, perUsername: Limit): preHandlerAsyncHookHandler[] {
  const errorResponseBuilder = (_request: FastifyRequest, context: { ttl: number }) => ({
    statusCode: 429,
    error: MSG.tooMany,
    message: MSG.tooMany,
    retryAfter: Math.ceil(context.ttl / 1000),
  });
  return [
    app.rateLimit({ max: perIp.max, timeWindow: perIp.windowMs, keyGenerator: (r) => `${action}:ip:${r.ip}`, errorResponseBuilder }),
    app.rateLimit({
      max: perUsername.max,
      timeWindow: perUsername.windowMs,
      keyGenerator: (r) => `${action}:user:${usernameOf(r)}`,
      errorResponseBuilder,
    }),
  ] as preHandlerAsyncHookHandler[];
}
