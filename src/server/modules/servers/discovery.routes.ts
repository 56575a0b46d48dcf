import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParamsSchema } from '../../../shared/schemas/common';
import {
  listServersQuerySchema,
  pageQuerySchema,
  reviewSchema,
  serverDetailSchema,
  serverSchema,
  type Server,
} from '../../../shared/schemas/server';
import { currentUser } from '../../plugins/auth';
import type { Visitor } from './audience-counter';

const errors = { 400: errorSchema, 404: errorSchema };

const visitorOf = async (request: FastifyRequest): Promise<Visitor> => ({
  user: await currentUser(request),
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** Lists, search and server pages (issue 3 "Discovery"). Totals go in `X-Total-Count`. */
export async function discoveryRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { discovery } = app.ctx;
  // Child plugins close before the app's own hooks, so the database is still open for the last counts.
  app.addHook('onClose', () => discovery.stopCounting());

  r.get('/servers', {
    schema: { tags: ['discovery'], querystring: listServersQuerySchema, response: { 200: z.array(serverSchema), ...errors } },
    handler: async (request, reply) => {
      const { json, total } = await discovery.list(request.query, await visitorOf(request));
      // Already serialised (and cached) by the service: Fastify sends a JSON string as it is.
      return reply
        .header('x-total-count', String(total))
        .type('application/json; charset=utf-8')
        .send(json as unknown as Server[]);
    },
  });

  r.get('/servers/just-joined', {
    schema: { tags: ['discovery'], response: { 200: z.array(serverSchema) } },
    handler: async () => discovery.justJoined(),
  });

  r.get('/server-of-the-weekend', {
    schema: { tags: ['discovery'], response: { 200: serverSchema.nullable() } },
    handler: async () => discovery.serverOfTheWeekend(),
  });

  r.get('/servers/:id', {
    schema: { tags: ['discovery'], params: idParamsSchema, response: { 200: serverDetailSchema, ...errors } },
    handler: async (request) => discovery.detail(request.params.id, await visitorOf(request)),
  });

  r.get('/servers/:id/reviews', {
    schema: {
      tags: ['discovery'],
      params: idParamsSchema,
      querystring: pageQuerySchema,
      response: { 200: z.array(reviewSchema), ...errors },
    },
    handler: async (request, reply) => {
      const { reviews, total } = await discovery.reviews(
        request.params.id,
        await currentUser(request),
        request.query.limit,
        request.query.offset,
      );
      return reply.header('x-total-count', String(total)).send(reviews);
    },
  });
}
