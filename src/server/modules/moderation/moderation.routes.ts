import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParamsSchema, messageSchema } from '../../../shared/schemas/common';
import { reportBodySchema, reportSchema, resolveReportBodySchema } from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { requireUser } from '../../plugins/auth';
import { voteLimit } from '../servers/limits';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };

/** `POST /api/reports` for logged-in users; the queue and its actions for admins. */
export async function moderationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { moderation } = app.ctx;

  r.post('/reports', {
    schema: { tags: ['moderation'], body: reportBodySchema, response: { 201: messageSchema, ...errors } },
    preHandler: voteLimit(app),
    handler: async (request, reply) => {
      await moderation.report(await requireUser(request), request.body);
      return reply.code(201).send({ message: MSG.reportThanks });
    },
  });

  r.get('/admin/reports', {
    schema: {
      tags: ['moderation'],
      querystring: z.object({ status: z.enum(['open', 'actioned', 'dismissed']).default('open') }),
      response: { 200: z.array(reportSchema), ...errors },
    },
    handler: async (request) => {
      await requireUser(request, 'admin');
      return moderation.queue(request.query.status);
    },
  });

  r.post('/admin/reports/:id/resolve', {
    schema: {
      tags: ['moderation'],
      params: idParamsSchema,
      body: resolveReportBodySchema,
      response: { 200: z.object({ ok: z.literal(true) }), ...errors },
    },
    handler: async (request) => {
      await requireUser(request, 'admin');
      await moderation.resolve(request.params.id, request.body.action);
      return { ok: true as const };
    },
  });
}
