import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParamsSchema } from '../../../shared/schemas/common';
import { serverSchema, voteBodySchema } from '../../../shared/schemas/server';
import { requireUser } from '../../plugins/auth';
import { voteLimit } from './limits';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/** Join, like and dislike (with an optional review): each answers the server with its new counters. */
export async function votesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { votes, servers } = app.ctx;

  r.post('/servers/:id/join', {
    schema: { tags: ['voting'], params: idParamsSchema, response: { 200: serverSchema, ...errors } },
    preHandler: voteLimit(app),
    handler: async (request) => servers.full(await votes.join(await requireUser(request), request.params.id)),
  });

  for (const type of ['like', 'dislike'] as const) {
    r.post(`/servers/:id/${type}`, {
      schema: { tags: ['voting'], params: idParamsSchema, body: voteBodySchema, response: { 200: serverSchema, ...errors } },
      preHandler: voteLimit(app),
      handler: async (request) => {
        const actor = await requireUser(request);
        return servers.full(await votes.vote(actor, request.params.id, type, request.body?.review));
      },
    });
  }
}
