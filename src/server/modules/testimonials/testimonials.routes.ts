import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema } from '../../../shared/schemas/common';
import { testimonialBodySchema, testimonialSchema, testimonialsSchema } from '../../../shared/schemas/admin';
import { requireUser } from '../../plugins/auth';
import type { TestimonialsService } from './testimonials.service';

/** `GET /api/testimonials` for everyone; `POST /api/testimonials` for server owners, once each. */
export const testimonialsRoutes =
  ({ testimonials }: { testimonials: TestimonialsService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/testimonials', {
      schema: { tags: ['testimonials'], response: { 200: testimonialsSchema } },
      handler: () => testimonials.list(),
    });

    r.post('/testimonials', {
      config: { signedIn: true },
      schema: {
        tags: ['testimonials'],
        body: testimonialBodySchema,
        response: { 201: testimonialSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
      },
      handler: async (request, reply) => {
        const created = await testimonials.post(await requireUser(request), request.body.content);
        return reply.code(201).send(created);
      },
    });
  };
