import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { filterCategoriesSchema } from '../../../shared/schemas/filters';
import type { FilterCatalog } from './filters.catalog';

/** `GET /api/filters/categories`: from memory. */
export const filtersRoutes =
  ({ filters }: { filters: FilterCatalog }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get('/filters/categories', {
      schema: { tags: ['discovery'], response: { 200: filterCategoriesSchema } },
      handler: async () => filters.categories(),
    });
  };
