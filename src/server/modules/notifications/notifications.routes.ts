import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema } from '../../../shared/schemas/common';
import {
  createdCountSchema,
  createNotificationBodySchema,
  notificationReadParamsSchema,
  notificationsSchema,
  notificationsQuerySchema,
  okSchema,
  pushCountSchema,
  pushPromotionResultSchema,
  pushSubscribeBodySchema,
  pushSubscriptionSchema,
  sendMassBodySchema,
  vapidKeySchema,
} from '../../../shared/schemas/notifications';
import { currentUser, requireUser } from '../../plugins/auth';
import { pushSubscribeLimit } from './limits';
import type { NotificationsService } from './notifications.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };

/** Inbox, push subscriptions and push promotions. */
export const notificationsRoutes =
  ({ notifications }: { notifications: NotificationsService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/notifications', {
      schema: { tags: ['notifications'], querystring: notificationsQuerySchema, response: { 200: notificationsSchema } },
      handler: async (request, reply) => {
        const { rows, total } = await notifications.list(await currentUser(request), request.query.limit, request.query.offset);
        return reply.header('x-total-count', String(total)).send(rows);
      },
    });

    r.post('/notifications', {
      config: { adminOnly: true },
      schema: { tags: ['notifications'], body: createNotificationBodySchema, response: { 201: createdCountSchema, ...errors } },
      handler: async (request, reply) => {
        const actor = await requireUser(request, 'admin');
        return reply.code(201).send({ created: await notifications.create(actor, request.body) });
      },
    });

    r.post('/notifications/:id/read', {
      config: { signedIn: true },
      schema: { tags: ['notifications'], params: notificationReadParamsSchema, response: { 200: okSchema, ...errors } },
      handler: async (request) => {
        await notifications.markRead(await requireUser(request), request.params.id);
        return { ok: true as const };
      },
    });

    r.get('/push/public-key', {
      schema: { tags: ['notifications'], response: { 200: vapidKeySchema } },
      handler: async () => ({ publicKey: notifications.publicKey() }),
    });

    // One limiter for both registration routes, so switching routes does not double the allowance.
    const subscribeLimit = pushSubscribeLimit(app);
    r.post('/notifications/save-subscription', {
      config: { signedIn: true },
      schema: { tags: ['notifications'], body: pushSubscriptionSchema, response: { 201: okSchema, ...errors } },
      preHandler: subscribeLimit,
      handler: async (request, reply) => {
        await notifications.saveSubscription(await requireUser(request), request.body, request.headers['user-agent']);
        return reply.code(201).send({ ok: true as const });
      },
    });

    r.post('/push/subscribe', {
      config: { signedIn: true },
      schema: { tags: ['notifications'], body: pushSubscribeBodySchema, response: { 201: okSchema, ...errors } },
      preHandler: subscribeLimit,
      handler: async (request, reply) => {
        await notifications.saveSubscription(await requireUser(request), request.body.subscription, request.headers['user-agent']);
        return reply.code(201).send({ ok: true as const });
      },
    });

    r.get('/notifications/push-count', {
      config: { signedIn: true },
      schema: { tags: ['notifications'], response: { 200: pushCountSchema, ...errors } },
      handler: async (request) => notifications.pushCount(await requireUser(request)),
    });

    r.post('/notifications/send-mass', {
      config: { signedIn: ['server_owner'] },
      schema: { tags: ['notifications'], body: sendMassBodySchema, response: { 202: pushPromotionResultSchema, ...errors } },
      handler: async (request, reply) => {
        const actor = await requireUser(request, 'server_owner');
        return reply.code(202).send(await notifications.sendMass(actor, request.body));
      },
    });
  };
