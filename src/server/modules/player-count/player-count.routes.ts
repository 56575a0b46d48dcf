import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { playerCountSchema } from '../../../shared/schemas/player-count';

/** `GET /api/player-count`: served from memory, updated by the socket event `playerCountUpdated`. */
export async function playerCountRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/player-count', {
    schema: { tags: ['discovery'], response: { 200: playerCountSchema } },
    handler: async () => ({ count: app.ctx.playerCount.count }),
  });
}
