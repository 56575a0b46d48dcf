import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParamsSchema, messageSchema } from '../../../shared/schemas/common';
import { emailCampaignSchema, sendEmailBodySchema } from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { badRequest } from '../../errors';
import { requireUser } from '../../plugins/auth';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** Mass e-mail for admins, and the unsubscribe link every such e-mail carries (RFC 8058 one-click too). */
export async function emailRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { massEmail } = app.ctx;
  // A mail client's one-click unsubscribe posts `List-Unsubscribe=One-Click` as a form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  r.post('/admin/send-email', {
    schema: { tags: ['admin'], body: sendEmailBodySchema, response: { 202: emailCampaignSchema, ...errors } },
    handler: async (request, reply) => reply.code(202).send(await massEmail.start(await requireUser(request, 'admin'), request.body)),
  });

  r.get('/admin/email-campaigns', {
    schema: { tags: ['admin'], response: { 200: z.array(emailCampaignSchema), ...errors } },
    handler: async (request) => {
      await requireUser(request, 'admin');
      return massEmail.recent();
    },
  });

  r.get('/admin/email-campaigns/:id', {
    schema: { tags: ['admin'], params: idParamsSchema, response: { 200: emailCampaignSchema, ...errors } },
    handler: async (request) => {
      await requireUser(request, 'admin');
      return massEmail.get(request.params.id);
    },
  });

  r.post('/unsubscribe', {
    schema: {
      tags: ['accounts'],
      querystring: z.object({ token: z.string().max(300).optional() }),
      body: z
        .object({ token: z.string().max(300).optional() })
        .passthrough()
        .nullish(),
      response: { 200: messageSchema, 400: errorSchema },
    },
    handler: async (request) => {
      const token = request.body?.token ?? request.query.token;
      if (!token || !(await massEmail.unsubscribe(token))) throw badRequest(MSG.unsubscribeInvalid);
      return { message: MSG.unsubscribed };
    },
  });
}
