import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../plugins/auth';
import { limitPerIpAndUsername } from '../../plugins/rate-limits';

/** Each session call may create a Stripe session: limited per client network and per logged-in user. */
export const checkoutLimit = (app: FastifyInstance) =>
  limitPerIpAndUsername(app, 'checkout', app.ctx.rateLimits.checkoutPerIp, app.ctx.rateLimits.checkoutPerUser, async (request) =>
    String((await currentUser(request))?.id ?? `anon:${request.ip}`),
  );
