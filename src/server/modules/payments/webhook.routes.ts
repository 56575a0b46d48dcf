import type { FastifyInstance } from 'fastify';
import type { Stripe } from '../../adapters/stripe';
import { badRequest } from '../../errors';

/**
 * `POST /api/stripe/webhook`: the signature is checked over the raw body (Stripe's 5-minute
 * tolerance refuses replays); only then is the event applied. Without keys it does not exist.
 */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const { stripe, webhooks, config } = app.ctx;
  const secret = config.stripe.webhookSecret;
  // This plugin's own JSON parser keeps the bytes: a re-serialised body would not match the signature.
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

  app.post('/stripe/webhook', { schema: { hide: true } }, async (request, reply) => {
    if (!stripe || !secret) return reply.code(404).send({ error: 'Stripe is not configured' });
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw badRequest('Missing Stripe signature');
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(request.body, signature, secret);
    } catch {
      throw badRequest('Invalid Stripe signature');
    }
    await webhooks.handle(event);
    return { received: true };
  });
}
