import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tokenClaims } from '../../plugins/auth';
import { limitPerIpAndUsername } from '../../plugins/rate-limits';

/**
 * Votes, reviews and uploads are rate-limited per IP and per user: one user cannot spread them
 * over addresses, nor one address over accounts. The user is the one the token was signed for,
 * known without the database: a vote's account is checked by its own statement, after the limit.
 */
const byUser = async (request: FastifyRequest) => String((await tokenClaims(request))?.userId ?? `anon:${request.ip}`);

/** Pre-handler limiting joins, votes and reports per IP and per user, and over an hour per network and per user. */
export const voteLimit = (app: FastifyInstance) =>
  limitPerIpAndUsername(app, 'vote', app.ctx.rateLimits.votesPerIp, app.ctx.rateLimits.votesPerUser, byUser, {
    perNetwork: app.ctx.rateLimits.votesPerNetworkHour,
    perAccount: app.ctx.rateLimits.votesPerUserHour,
  });

/** Pre-handler limiting image uploads per IP and per user. */
export const uploadLimit = (app: FastifyInstance) =>
  limitPerIpAndUsername(app, 'upload', app.ctx.rateLimits.uploadsPerIp, app.ctx.rateLimits.uploadsPerUser, byUser);
