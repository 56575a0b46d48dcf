import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { playerCountSchema } from '../../../shared/schemas/player-count';
import { cachedBody, jsonThrough, sendCached, type CachedBody } from '../../lib/response-cache';
import type { PlayerCountService } from './player-count.service';

/**
 * `GET /api/player-count`: served from memory, updated by the socket event `playerCountUpdated`.
 * The bytes (and ETag) are made once per count.
 */
export const playerCountRoutes =
  ({ playerCount }: { playerCount: Pick<PlayerCountService, 'count'> }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    let made: { count: number; body: CachedBody } | undefined;
    app.withTypeProvider<ZodTypeProvider>().get('/player-count', {
      schema: { tags: ['discovery'], response: { 200: playerCountSchema } },
      handler: async (request, reply) => {
        const count = playerCount.count;
        if (made?.count !== count) made = { count, body: cachedBody(jsonThrough(playerCountSchema, { count })) };
        return sendCached(request, reply, made.body);
      },
    });
  };
