import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../plugins/auth';
import { limitPerIpAndUsername } from '../../plugins/rate-limits';

/** Votes, reviews and uploads are rate-limited per IP and per user (decisions §4). */
const byUser = async (request: Parameters<typeof currentUser>[0]) => String((await currentUser(request))?.id ?? `anon:${request.ip}`);

export const voteLimit = (app: FastifyInstance) =>
  limitPerIpAndUsername(app, 'vote', app.ctx.rateLimits.votesPerIp, app.ctx.rateLimits.votesPerUser, byUser);

export const uploadLimit = (app: FastifyInstance) =>
  limitPerIpAndUsername(app, 'upload', app.ctx.rateLimits.uploadsPerIp, app.ctx.rateLimits.uploadsPerUser, byUser);
