import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthStatusSchema } from '../../../shared/schemas/health';
import type { HealthService } from './health.service';

/** `GET /api/health`: the process is alive. `GET /api/ready`: it can also reach its database. */
export const healthRoutes =
  ({ health }: { health: HealthService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get('/health', {
      schema: { tags: ['health'], response: { 200: healthStatusSchema } },
      handler: async () => ({ status: 'ok' as const }),
    });
    r.get('/ready', {
      schema: { tags: ['health'], response: { 200: healthStatusSchema, 503: healthStatusSchema } },
      handler: async (_request, reply) => {
        const ok = await health.isReady();
        return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable' });
      },
    });
  };
