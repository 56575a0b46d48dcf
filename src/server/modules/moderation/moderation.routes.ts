import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams, messageSchema } from '../../../shared/schemas/common';
import {
  reportBodySchema,
  reportsQuerySchema,
  reportsSchema,
  resolvedSchema,
  resolveReportBodySchema,
} from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { requireUser } from '../../plugins/auth';
import { voteLimit } from '../servers';
import type { ModerationService } from './moderation.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };

/** `POST /api/reports` for logged-in users; the queue and its actions for admins. */
export const moderationRoutes =
  ({ moderation }: { moderation: ModerationService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post('/reports', {
      config: { signedIn: true },
      schema: { tags: ['moderation'], body: reportBodySchema, response: { 201: messageSchema, ...errors } },
      preHandler: voteLimit(app),
      handler: async (request, reply) => {
        await moderation.report(await requireUser(request), request.body);
        return reply.code(201).send({ message: MSG.reportThanks });
      },
    });

    r.get('/admin/reports', {
      schema: { tags: ['moderation'], querystring: reportsQuerySchema, response: { 200: reportsSchema, ...errors } },
      handler: async (request) => moderation.queue(await requireUser(request, 'admin'), request.query.status),
    });

    r.post('/admin/reports/:id/resolve', {
      schema: {
        tags: ['moderation'],
        params: idParams(MSG.reportNotFound),
        body: resolveReportBodySchema,
        response: { 200: resolvedSchema, ...errors },
      },
      handler: async (request) => {
        await moderation.resolve(await requireUser(request, 'admin'), request.params.id, request.body.action);
        return { ok: true as const };
      },
    });
  };
