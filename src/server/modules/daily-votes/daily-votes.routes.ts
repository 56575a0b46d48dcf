import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import {
  dailyVoteBodySchema,
  dailyVoteStateSchema,
  monthlyRankingQuerySchema,
  monthlyRankingSchema,
  votesPerDaySchema,
} from '../../../shared/schemas/daily-votes';
import { MSG } from '../../../shared/messages';
import { clientNetwork } from '../../lib/network';
import { requireUser, requireVoter } from '../../plugins/auth';
import { voteLimit } from '../servers';
import type { DailyVotesService } from './daily-votes.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/** Daily votes: vote, the caller's state, the monthly ranking and the owner's votes per day. */
export const dailyVotesRoutes =
  ({ dailyVotes }: { dailyVotes: DailyVotesService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    app.addHook('onClose', async () => dailyVotes.stop());

    r.post('/servers/:id/vote', {
      // The vote's statement checks the account: one round trip a vote (`accountCheckedByStatement`).
      config: { signedIn: true, accountCheckedByStatement: true },
      schema: {
        tags: ['voting'],
        params: idParams(MSG.serverNotFound),
        body: dailyVoteBodySchema,
        response: { 200: dailyVoteStateSchema, ...errors },
      },
      preHandler: voteLimit(app),
      handler: async (request) =>
        dailyVotes.vote(await requireVoter(request), request.params.id, {
          playerName: request.body.playerName,
          network: clientNetwork(request.ip),
          address: request.ip,
        }),
    });

    r.get('/servers/:id/vote', {
      config: { signedIn: true },
      schema: { tags: ['voting'], params: idParams(MSG.serverNotFound), response: { 200: dailyVoteStateSchema, ...errors } },
      handler: async (request) => dailyVotes.state(await requireUser(request), request.params.id),
    });

    r.get('/servers/:id/votes/daily', {
      config: { signedIn: true },
      schema: { tags: ['voting'], params: idParams(MSG.serverNotFound), response: { 200: votesPerDaySchema, ...errors } },
      handler: async (request) => dailyVotes.perDay(await requireUser(request), request.params.id),
    });

    r.get('/rankings/votes', {
      schema: { tags: ['voting'], querystring: monthlyRankingQuerySchema, response: { 200: monthlyRankingSchema, 400: errorSchema } },
      handler: async (request) => dailyVotes.ranking(request.query.month, request.query.limit),
    });
  };
