import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import { MSG } from '../../../shared/messages';
import { reviewEditBodySchema, serverSchema, voteBodySchema } from '../../../shared/schemas/server';
import { messageSchema } from '../../../shared/schemas/common';
import { requireUser, requireVoter } from '../../plugins/auth';
import { clientNetwork } from '../../lib/network';
import { sendJsonText } from '../../lib/cached-body';
import { voteLimit } from './limits';
import type { DiscoveryService } from './discovery.service';
import type { VotesService } from './votes.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/**
 * Join, like and dislike (with an optional review): each answers the server's card with its new
 * counters, as the JSON lists show it (made by the service, so no serializer runs again).
 */
export const votesRoutes =
  ({ votes, discovery }: { votes: VotesService; discovery: DiscoveryService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post('/servers/:id/join', {
      // The join's statement checks the account: one round trip a join (`accountCheckedByStatement`).
      config: { signedIn: true, accountCheckedByStatement: true },
      schema: { tags: ['voting'], params: idParams(MSG.serverNotFound), response: { 200: serverSchema, ...errors } },
      preHandler: voteLimit(app),
      handler: async (request, reply) =>
        sendJsonText(
          reply,
          await discovery.freshCard(await votes.join(await requireVoter(request), request.params.id, clientNetwork(request.ip))),
        ),
    });

    for (const type of ['like', 'dislike'] as const) {
      r.post(`/servers/:id/${type}`, {
        // The vote's statement checks the account: one round trip a vote (`accountCheckedByStatement`).
        config: { signedIn: true, accountCheckedByStatement: true },
        schema: {
          tags: ['voting'],
          params: idParams(MSG.serverNotFound),
          body: voteBodySchema,
          response: { 200: serverSchema, ...errors },
        },
        preHandler: voteLimit(app),
        handler: async (request, reply) => {
          const id = await votes.vote(
            await requireVoter(request),
            request.params.id,
            type,
            request.body?.review,
            clientNetwork(request.ip),
          );
          return sendJsonText(reply, await discovery.freshCard(id));
        },
      });
    }

    r.put('/servers/:id/review', {
      config: { signedIn: true },
      schema: {
        tags: ['voting'],
        description: "Changes the text of the caller's own review (one per account and server); an empty text removes it, the vote stays.",
        params: idParams(MSG.serverNotFound),
        body: reviewEditBodySchema,
        response: { 200: messageSchema, ...errors },
      },
      preHandler: voteLimit(app),
      handler: async (request) => {
        await votes.editReview(await requireUser(request), request.params.id, request.body.review);
        return { message: MSG.reviewSaved };
      },
    });
  };
