import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { playerCountSchema } from '../../../shared/schemas/player-count';
import type { PlayerCountService } from './player-count.service';

/** `GET /api/player-count`: served from memory, updated by the socket event `playerCountUpdated`. */
export const playerCountRoutes =
  ({ playerCount }: { playerCount: Pick<PlayerCountService, 'count'> }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get('/player-count', {
      schema: { tags: ['discovery'], response: { 200: playerCountSchema } },
      handler: async () => ({ count: playerCount.count }),
    });
  };
