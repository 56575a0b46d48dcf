import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParamsSchema } from '../../../shared/schemas/common';
import {
  createNotificationBodySchema,
  notificationSchema,
  pushCountSchema,
  pushSubscribeBodySchema,
  pushSubscriptionSchema,
  sendMassBodySchema,
  vapidKeySchema,
} from '../../../shared/schemas/notifications';
import { currentUser, requireUser } from '../../plugins/auth';
import { pushSubscribeLimit } from './limits';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };
const ok = z.object({ ok: z.literal(true) });

/** Inbox, push subscriptions and push promotions (issue 5). */
export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { notifications } = app.ctx;

  r.get('/notifications', {
    schema: {
      tags: ['notifications'],
      querystring: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        offset: z.coerce.number().int().min(0).max(100_000).default(0),
      }),
      response: { 200: z.array(notificationSchema) },
    },
    handler: async (request, reply) => {
      const { rows, total } = await notifications.list(await currentUser(request), request.query.limit, request.query.offset);
      return reply.header('x-total-count', String(total)).send(rows);
    },
  });

  r.post('/notifications', {
    schema: {
      tags: ['notifications'],
      body: createNotificationBodySchema,
      response: { 201: z.object({ created: z.number().int() }), ...errors },
    },
    handler: async (request, reply) => {
      await requireUser(request, 'admin');
      return reply.code(201).send({ created: await notifications.create(request.body) });
    },
  });

  r.post('/notifications/:id/read', {
    schema: { tags: ['notifications'], params: idParamsSchema, response: { 200: ok, ...errors } },
    handler: async (request) => {
      await notifications.markRead(await requireUser(request), request.params.id === 'all' ? 'all' : request.params.id);
      return { ok: true as const };
    },
  });

  r.get('/push/public-key', {
    schema: { tags: ['notifications'], response: { 200: vapidKeySchema } },
    handler: async () => ({ publicKey: app.ctx.push.publicKey }),
  });

  // One limiter for both registration routes, so switching routes does not double the allowance.
  const subscribeLimit = pushSubscribeLimit(app);
  r.post('/notifications/save-subscription', {
    schema: { tags: ['notifications'], body: pushSubscriptionSchema, response: { 201: ok, ...errors } },
    preHandler: subscribeLimit,
    handler: async (request, reply) => {
      await notifications.saveSubscription(await requireUser(request), request.body, request.headers['user-agent']);
      return reply.code(201).send({ ok: true as const });
    },
  });

  r.post('/push/subscribe', {
    schema: { tags: ['notifications'], body: pushSubscribeBodySchema, response: { 201: ok, ...errors } },
    preHandler: subscribeLimit,
    handler: async (request, reply) => {
      await notifications.saveSubscription(await requireUser(request), request.body.subscription, request.headers['user-agent']);
      return reply.code(201).send({ ok: true as const });
    },
  });

  r.get('/notifications/push-count', {
    schema: { tags: ['notifications'], response: { 200: pushCountSchema, ...errors } },
    handler: async (request) => notifications.pushCount(await requireUser(request)),
  });

  r.post('/notifications/send-mass', {
    schema: {
      tags: ['notifications'],
      body: sendMassBodySchema,
      response: {
        202: z.object({ id: z.string(), recipients: z.number().int(), playerCount: z.number().int(), remaining: z.number().int() }),
        ...errors,
      },
    },
    handler: async (request, reply) => {
      const actor = await requireUser(request, 'server_owner');
      return reply.code(202).send(await notifications.sendMass(actor, request.body));
    },
  });
}
