import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParamsSchema } from '../../../shared/schemas/common';
import { serverStatsSchema, statsQuerySchema } from '../../../shared/schemas/stats';
import { requireUser } from '../../plugins/auth';
import { statsService } from './stats.service';

/** `GET /api/stats/servers/{id}?days=7|30`: the owner's charts on `/stats`. */
export async function statsRoutes(app: FastifyInstance): Promise<void> {
  const stats = statsService({ db: app.ctx.db, now: app.ctx.now });
  app.withTypeProvider<ZodTypeProvider>().get('/stats/servers/:id', {
    schema: {
      tags: ['stats'],
      params: idParamsSchema,
      querystring: statsQuerySchema,
      response: { 200: serverStatsSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
    },
    handler: async (request) =>
      stats.forServer(await requireUser(request, 'server_owner'), request.params.id, request.query.days as 7 | 30),
  });
}
