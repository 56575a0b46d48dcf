import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '../../../shared/schemas/common';
import { fraudActionBodySchema, fraudActionResultSchema, fraudEvidenceSchema, fraudSuspectsSchema } from '../../../shared/schemas/fraud';
import { MSG } from '../../../shared/messages';
import { requireUser } from '../../plugins/auth';
import type { FraudService } from './fraud.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** The admins' fraud review: suspects, evidence, void and release. */
export const fraudRoutes =
  ({ fraud }: { fraud: FraudService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/admin/fraud', {
      schema: { tags: ['admin'], response: { 200: fraudSuspectsSchema, ...errors } },
      handler: async (request) => fraud.suspects(await requireUser(request, 'admin')),
    });

    r.get('/admin/fraud/servers/:id', {
      schema: { tags: ['admin'], params: idParams(MSG.serverNotFound), response: { 200: fraudEvidenceSchema, ...errors } },
      handler: async (request) => fraud.evidence(await requireUser(request, 'admin'), request.params.id),
    });

    r.post('/admin/fraud/actions', {
      schema: { tags: ['admin'], body: fraudActionBodySchema, response: { 200: fraudActionResultSchema, ...errors } },
      handler: async (request) => fraud.act(await requireUser(request, 'admin'), request.body),
    });
  };
