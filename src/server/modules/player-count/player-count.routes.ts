import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { playerCountSchema } from '../../../shared/schemas/player-count';
import { cachedBody, jsonThrough, sendCached, type CachedBody } from '../../lib/cached-body';
import type { FrontCache } from '../../lib/front-cache';
import type { PlayerCountService } from './player-count.service';

/**
 * `GET /api/player-count`: served from memory, updated by the socket event `playerCountUpdated`.
 * The bytes (and ETag) are made once per count.
 */
export const playerCountRoutes =
  ({ playerCount, front }: { playerCount: Pick<PlayerCountService, 'count'>; front?: FrontCache }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    let made: { count: number; body: CachedBody } | undefined;
    const current = (): CachedBody => {
      const count = playerCount.count;
      if (made?.count !== count) made = { count, body: cachedBody(jsonThrough(playerCountSchema, { count })) };
      return made.body;
    };
    // The same count for everyone, logged in or not.
    front?.route(`${app.prefix}/player-count`, () => ({ body: current() }), { anyCaller: true });
    app.withTypeProvider<ZodTypeProvider>().get('/player-count', {
      schema: { tags: ['discovery'], response: { 200: playerCountSchema } },
      handler: async (request, reply) => sendCached(request, reply, current()),
    });
  };
