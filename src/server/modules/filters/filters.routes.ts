import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { filterCategoriesSchema } from '../../../shared/schemas/filters';
import { cachedBody, jsonThrough, sendCached, type CachedBody } from '../../lib/response-cache';
import type { FilterCatalog } from './filters.catalog';

/** `GET /api/filters/categories`: from memory, as bytes made once (the catalog changes only at start-up). */
export const filtersRoutes =
  ({ filters }: { filters: FilterCatalog }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    let body: CachedBody | undefined;
    app.withTypeProvider<ZodTypeProvider>().get('/filters/categories', {
      schema: { tags: ['discovery'], response: { 200: filterCategoriesSchema } },
      handler: async (request, reply) => {
        body ??= cachedBody(jsonThrough(filterCategoriesSchema, filters.categories()));
        return sendCached(request, reply, body);
      },
    });
  };
