import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParamsSchema } from '../../../shared/schemas/common';
import {
  boostPackageBodySchema,
  boostSingleBodySchema,
  checkoutSessionSchema,
  checkoutUrlSchema,
  completeCheckoutSchema,
  paymentSchema,
  quoteSchema,
  subscribeBodySchema,
  subscriptionSchema,
  weekendBodySchema,
} from '../../../shared/schemas/payments';
import { currentUser, requireUser } from '../../plugins/auth';
import { limitPerIpAndUsername } from '../../plugins/rate-limits';
import { paymentsRepository } from './payments.repository';

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
  502: errorSchema,
};
const returnPath = z.object({ returnPath: z.string().max(200).optional() });

/** Checkout sessions, the built-in test checkout, subscription and payment history (issue 4). */
export async function paymentsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { checkout } = app.ctx;
  const payments = paymentsRepository(app.ctx.db);
  // Each session call may create a Stripe session: limited per client network and per logged-in user.
  const checkoutLimit = limitPerIpAndUsername(
    app,
    'checkout',
    app.ctx.rateLimits.checkoutPerIp,
    app.ctx.rateLimits.checkoutPerUser,
    async (request) => String((await currentUser(request))?.id ?? `anon:${request.ip}`),
  );

  r.post('/subscribe-session', {
    preHandler: checkoutLimit,
    schema: { tags: ['payments'], body: subscribeBodySchema.extend(returnPath.shape), response: { 200: checkoutUrlSchema, ...errors } },
    handler: async (request) => checkout.subscribe(await requireUser(request), request.body.plan, request.body.returnPath),
  });

  r.post('/boost-single-session', {
    preHandler: checkoutLimit,
    schema: { tags: ['payments'], body: boostSingleBodySchema.extend(returnPath.shape), response: { 200: checkoutUrlSchema, ...errors } },
    handler: async (request) => checkout.boostSingle(await requireUser(request), request.body.serverId, request.body.returnPath),
  });

  r.post('/boost-session', {
    preHandler: checkoutLimit,
    schema: { tags: ['payments'], body: boostPackageBodySchema.extend(returnPath.shape), response: { 200: checkoutUrlSchema, ...errors } },
    handler: async (request) =>
      checkout.boostPackage(await requireUser(request), request.body.serverId, request.body.amount, request.body.returnPath),
  });

  r.post('/weekend-session', {
    preHandler: checkoutLimit,
    schema: { tags: ['payments'], body: weekendBodySchema.extend(returnPath.shape), response: { 200: checkoutUrlSchema, ...errors } },
    handler: async (request) => checkout.weekend(await requireUser(request), request.body.serverId, request.body.returnPath),
  });

  r.get('/checkout/:id', {
    schema: { tags: ['payments'], params: idParamsSchema, response: { 200: checkoutSessionSchema, ...errors } },
    handler: async (request) => checkout.get(await requireUser(request), request.params.id),
  });

  r.post('/checkout/:id/complete', {
    schema: {
      tags: ['payments'],
      params: idParamsSchema,
      response: { 200: completeCheckoutSchema, ...errors },
    },
    handler: async (request) => checkout.completeTest(await requireUser(request), request.params.id),
  });

  r.post('/checkout/:id/cancel', {
    schema: { tags: ['payments'], params: idParamsSchema, response: { 200: z.object({ returnPath: z.string() }), ...errors } },
    handler: async (request) => checkout.cancelTest(await requireUser(request), request.params.id),
  });

  r.post('/cancel-subscription', {
    schema: { tags: ['payments'], response: { 200: z.object({ plan: z.literal('') }), ...errors } },
    handler: async (request) => checkout.cancelSubscription(await requireUser(request)),
  });

  r.get('/user/subscription', {
    schema: { tags: ['payments'], response: { 200: subscriptionSchema, 401: errorSchema } },
    handler: async (request) => payments.subscriptionOf(await requireUser(request)),
  });

  r.get('/user/payments', {
    schema: {
      tags: ['payments'],
      querystring: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(20),
        offset: z.coerce.number().int().min(0).max(100_000).default(0),
      }),
      response: { 200: z.array(paymentSchema), 401: errorSchema },
    },
    handler: async (request, reply) => {
      const { rows, total } = await payments.historyOf(await requireUser(request), request.query.limit, request.query.offset);
      return reply.header('x-total-count', String(total)).send(rows);
    },
  });

  r.get('/payments/quote', {
    schema: { tags: ['payments'], response: { 200: quoteSchema, 401: errorSchema } },
    handler: async (request) => checkout.quote(await requireUser(request)),
  });
}
