import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema } from '../../../shared/schemas/common';
import {
  boostCreditBalancesSchema,
  boostPackageSessionBodySchema,
  boostSingleSessionBodySchema,
  cancelCheckoutSchema,
  cancelSubscriptionSchema,
  checkoutParamsSchema,
  checkoutSessionSchema,
  checkoutUrlSchema,
  completeCheckoutSchema,
  paymentHistoryQuerySchema,
  paymentHistorySchema,
  quoteSchema,
  spendBoostCreditsBodySchema,
  spentBoostCreditsSchema,
  subscribeSessionBodySchema,
  subscriptionSchema,
  weekendSessionBodySchema,
} from '../../../shared/schemas/payments';
import { requireUser } from '../../plugins/auth';
import type { BoostCreditsService } from './boost-credits.service';
import type { CheckoutService } from './checkout.service';
import type { PaymentsService } from './payments.service';
import { checkoutLimit } from './limits';

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
  502: errorSchema,
};

/** Checkout sessions, the built-in test checkout, boost credits, subscription and payment history. */
export const paymentsRoutes =
  ({
    checkout,
    payments,
    boostCredits,
  }: {
    checkout: CheckoutService;
    payments: PaymentsService;
    boostCredits: BoostCreditsService;
  }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // One limiter for all four session calls: together they count against the same budget.
    const limit = checkoutLimit(app);

    r.post('/subscribe-session', {
      config: { signedIn: true },
      preHandler: limit,
      schema: { tags: ['payments'], body: subscribeSessionBodySchema, response: { 200: checkoutUrlSchema, ...errors } },
      handler: async (request) => checkout.subscribe(await requireUser(request), request.body.plan, request.body.returnPath),
    });

    r.post('/boost-single-session', {
      config: { signedIn: true },
      preHandler: limit,
      schema: { tags: ['payments'], body: boostSingleSessionBodySchema, response: { 200: checkoutUrlSchema, ...errors } },
      handler: async (request) => checkout.boostSingle(await requireUser(request), request.body.serverId, request.body.returnPath),
    });

    r.post('/boost-session', {
      config: { signedIn: true },
      preHandler: limit,
      schema: { tags: ['payments'], body: boostPackageSessionBodySchema, response: { 200: checkoutUrlSchema, ...errors } },
      handler: async (request) =>
        checkout.boostPackage(await requireUser(request), request.body.serverId, request.body.amount, request.body.returnPath),
    });

    // Spending credits opens no Stripe session, so it is outside the checkout limiter.
    r.post('/boost-credits', {
      config: { signedIn: true },
      schema: { tags: ['payments'], body: spendBoostCreditsBodySchema, response: { 200: spentBoostCreditsSchema, ...errors } },
      handler: async (request) => boostCredits.spend(await requireUser(request), request.body.serverId, request.body.amount),
    });

    r.get('/user/boost-credits', {
      config: { signedIn: true },
      schema: { tags: ['payments'], response: { 200: boostCreditBalancesSchema, 401: errorSchema } },
      handler: async (request) => boostCredits.balances(await requireUser(request)),
    });

    r.post('/weekend-session', {
      config: { signedIn: true },
      preHandler: limit,
      schema: { tags: ['payments'], body: weekendSessionBodySchema, response: { 200: checkoutUrlSchema, ...errors } },
      handler: async (request) => checkout.weekend(await requireUser(request), request.body.serverId, request.body.returnPath),
    });

    r.get('/checkout/:id', {
      config: { signedIn: true },
      schema: { tags: ['payments'], params: checkoutParamsSchema, response: { 200: checkoutSessionSchema, ...errors } },
      handler: async (request) => checkout.get(await requireUser(request), request.params.id),
    });

    r.post('/checkout/:id/complete', {
      config: { signedIn: true },
      schema: { tags: ['payments'], params: checkoutParamsSchema, response: { 200: completeCheckoutSchema, ...errors } },
      handler: async (request) => checkout.completeTest(await requireUser(request), request.params.id),
    });

    r.post('/checkout/:id/cancel', {
      config: { signedIn: true },
      schema: { tags: ['payments'], params: checkoutParamsSchema, response: { 200: cancelCheckoutSchema, ...errors } },
      handler: async (request) => checkout.cancelTest(await requireUser(request), request.params.id),
    });

    r.post('/cancel-subscription', {
      config: { signedIn: true },
      schema: { tags: ['payments'], response: { 200: cancelSubscriptionSchema, ...errors } },
      handler: async (request) => checkout.cancelSubscription(await requireUser(request)),
    });

    r.get('/user/subscription', {
      config: { signedIn: true },
      schema: { tags: ['payments'], response: { 200: subscriptionSchema, 401: errorSchema } },
      handler: async (request) => payments.subscriptionOf(await requireUser(request)),
    });

    r.get('/user/payments', {
      config: { signedIn: true },
      schema: {
        tags: ['payments'],
        querystring: paymentHistoryQuerySchema,
        response: { 200: paymentHistorySchema, 401: errorSchema },
      },
      handler: async (request, reply) => {
        const { rows, total } = await payments.historyOf(await requireUser(request), request.query.limit, request.query.offset);
        return reply.header('x-total-count', String(total)).send(rows);
      },
    });

    r.get('/payments/quote', {
      config: { signedIn: true },
      schema: { tags: ['payments'], response: { 200: quoteSchema, 401: errorSchema } },
      handler: async (request) => checkout.quote(await requireUser(request)),
    });
  };
