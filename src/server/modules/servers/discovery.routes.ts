import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import { MSG } from '../../../shared/messages';
import {
  listServersQuerySchema,
  pageQuerySchema,
  reviewListSchema,
  serverDetailSchema,
  serverListSchema,
  serverOfTheWeekendSchema,
  TOTAL_CAPPED_HEADER,
} from '../../../shared/schemas/server';
import { sendCached } from '../../lib/response-cache';
import { currentUser } from '../../plugins/auth';
import type { Visitor } from './audience-counter';
import type { DiscoveryService } from './discovery.service';

const errors = { 400: errorSchema, 404: errorSchema };

const visitorOf = async (request: FastifyRequest): Promise<Visitor> => ({
  user: await currentUser(request),
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/**
 * Lists, search and server pages: public, logged in or not. Totals go in `X-Total-Count`. What is
 * the same for everyone is sent as bytes made once (ETag, 304, gzip and brotli), without running
 * the response serializer again (docs/decisions/023-hot-reads.md).
 */
export const discoveryRoutes =
  ({ discovery }: { discovery: DiscoveryService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // Child plugins close before the app's own hooks, so the database is still open for the last counts.
    app.addHook('onClose', () => discovery.stopCounting());

    r.get('/servers', {
      schema: { tags: ['discovery'], querystring: listServersQuerySchema, response: { 200: serverListSchema, ...errors } },
      handler: async (request, reply) => {
        const { body, total, capped } = await discovery.list(request.query, await visitorOf(request));
        reply.header('x-total-count', String(total));
        if (capped) reply.header(TOTAL_CAPPED_HEADER, '1');
        return sendCached(request, reply, body);
      },
    });

    r.get('/servers/just-joined', {
      schema: { tags: ['discovery'], response: { 200: serverListSchema } },
      handler: async (request, reply) => sendCached(request, reply, await discovery.justJoined()),
    });

    r.get('/server-of-the-weekend', {
      schema: { tags: ['discovery'], response: { 200: serverOfTheWeekendSchema } },
      handler: async (request, reply) => sendCached(request, reply, await discovery.serverOfTheWeekend()),
    });

    r.get('/servers/:id', {
      schema: { tags: ['discovery'], params: idParams(MSG.serverNotFound), response: { 200: serverDetailSchema, ...errors } },
      handler: async (request, reply) => {
        const visitor = await visitorOf(request);
        // A logged-in caller's answer carries their own state: serialised per request.
        if (visitor.user) return discovery.detail(request.params.id, visitor);
        return sendCached(request, reply, await discovery.anonymousDetail(request.params.id, visitor));
      },
    });

    r.get('/servers/:id/reviews', {
      schema: {
        tags: ['discovery'],
        params: idParams(MSG.serverNotFound),
        querystring: pageQuerySchema,
        response: { 200: reviewListSchema, ...errors },
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
  };
