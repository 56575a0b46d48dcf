import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, idParams, messageSchema } from '../../../shared/schemas/common';
import { emailCampaignSchema, sendEmailBodySchema } from '../../../shared/schemas/admin';
import { emailCampaignsSchema, unsubscribeFormSchema, unsubscribeQuerySchema } from '../../../shared/schemas/email';
import { MSG } from '../../../shared/messages';
import { requireUser } from '../../plugins/auth';
import type { MassEmailService } from './mass-email.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** Mass e-mail for admins, and the unsubscribe link every such e-mail carries (RFC 8058 one-click too). */
export const emailRoutes =
  ({ massEmail }: { massEmail: MassEmailService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // A mail client's one-click unsubscribe posts `List-Unsubscribe=One-Click` as a form.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    r.post('/admin/send-email', {
      schema: { tags: ['admin'], body: sendEmailBodySchema, response: { 202: emailCampaignSchema, ...errors } },
      handler: async (request, reply) => reply.code(202).send(await massEmail.start(await requireUser(request, 'admin'), request.body)),
    });

    r.get('/admin/email-campaigns', {
      schema: { tags: ['admin'], response: { 200: emailCampaignsSchema, ...errors } },
      handler: async (request) => massEmail.recent(await requireUser(request, 'admin')),
    });

    r.get('/admin/email-campaigns/:id', {
      schema: { tags: ['admin'], params: idParams(MSG.campaignNotFound), response: { 200: emailCampaignSchema, ...errors } },
      handler: async (request) => massEmail.get(await requireUser(request, 'admin'), request.params.id),
    });

    r.post('/unsubscribe', {
      schema: {
        tags: ['accounts'],
        querystring: unsubscribeQuerySchema,
        body: unsubscribeFormSchema,
        response: { 200: messageSchema, 400: errorSchema },
      },
      handler: async (request) => {
        await massEmail.unsubscribe(request.body?.token ?? request.query.token);
        return { message: MSG.unsubscribed };
      },
    });
  };
