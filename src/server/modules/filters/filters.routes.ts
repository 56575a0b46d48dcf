import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { filterCategoriesSchema } from '../../../shared/schemas/filters';
import { cachedBody, jsonThrough, sendCached, type CachedBody } from '../../lib/cached-body';
import type { FrontCache } from '../../lib/front-cache';
import type { FilterCatalog } from './filters.catalog';

/** `GET /api/filters/categories`: from memory, as bytes made once (the catalog changes only at start-up). */
export const filtersRoutes =
  ({ filters, front }: { filters: FilterCatalog; front?: FrontCache }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    let made: CachedBody | undefined;
    const body = (): CachedBody => (made ??= cachedBody(jsonThrough(filterCategoriesSchema, filters.categories())));
    // The same catalogue for everyone, logged in or not.
    front?.route(`${app.prefix}/filters/categories`, () => ({ body: body() }), { anyCaller: true });
    app.withTypeProvider<ZodTypeProvider>().get('/filters/categories', {
      schema: { tags: ['discovery'], response: { 200: filterCategoriesSchema } },
      handler: async (request, reply) => sendCached(request, reply, body()),
    });
  };
