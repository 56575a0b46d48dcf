import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/auth';
import { limitPerIpAndUsername } from '../../plugins/rate-limits';
import { clientKey } from '../../lib/network';

/** Keyed on the user id; an anonymous caller (refused anyway) on its address. */
const byUser = async (request: FastifyRequest) => String((await currentUser(request))?.id ?? `anon:${clientKey(request.ip)}`);

/**
 * Registering a push subscription is limited per client and per user. Both registration routes
 * must share one limiter: the counters live in the limiter that `createRateLimit` made.
 */
export const pushSubscribeLimit = (app: FastifyInstance) =>
  limitPerIpAndUsername(app, 'push-subscribe', app.ctx.rateLimits.pushSubscribePerIp, app.ctx.rateLimits.pushSubscribePerUser, byUser);
