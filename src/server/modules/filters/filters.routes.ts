import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { filterCategorySchema } from '../../../shared/schemas/server';

/** `GET /api/filters/categories`: from memory. */
export async function filtersRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/filters/categories', {
    schema: { tags: ['discovery'], response: { 200: z.array(filterCategorySchema) } },
    handler: async () => app.ctx.filters.categories(),
  });
}
