import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import { serverStatsSchema, statsQuerySchema } from '../../../shared/schemas/stats';
import { MSG } from '../../../shared/messages';
import { requireUser } from '../../plugins/auth';
import type { StatsService } from './stats.service';

/** `GET /api/stats/servers/{id}?days=7|30`: the owner's charts on `/stats`. */
export const statsRoutes =
  ({ stats }: { stats: StatsService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get('/stats/servers/:id', {
      config: { signedIn: ['server_owner'] },
      schema: {
        tags: ['stats'],
        params: idParams(MSG.serverNotFound),
        querystring: statsQuerySchema,
        response: { 200: serverStatsSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
      // The role is checked before the lookup: anyone but an owner gets 403 whether or not the server exists.
      handler: async (request) => stats.forServer(await requireUser(request, 'server_owner'), request.params.id, request.query.days),
    });
  };
