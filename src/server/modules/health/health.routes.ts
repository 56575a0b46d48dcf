import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pingDatabase } from '../../db/database';

const statusSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

/** `GET /api/health`: the process is alive. `GET /api/ready`: it can also reach its database. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/health', {
    schema: { tags: ['health'], response: { 200: statusSchema } },
    handler: async () => ({ status: 'ok' as const }),
  });
  r.get('/ready', {
    schema: { tags: ['health'], response: { 200: statusSchema, 503: statusSchema } },
    handler: async (_request, reply) => {
      const ok = await pingDatabase(app.ctx.db);
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable' });
    },
  });
}
