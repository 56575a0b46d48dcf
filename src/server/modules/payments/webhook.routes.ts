import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../errors';
import type { WebhookService } from './webhook.service';

/**
 * `POST /api/stripe/webhook`: the service checks the signature over the raw body, then applies
 * the event. Without Stripe keys it does not exist.
 */
export const webhookRoutes =
  ({ webhooks }: { webhooks: WebhookService }): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    // This plugin's own JSON parser keeps the bytes: a re-serialised body would not match the signature.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

    app.post('/stripe/webhook', { schema: { hide: true } }, async (request, reply) => {
      if (!webhooks.enabled) return reply.code(404).send({ error: 'Stripe is not configured' });
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw badRequest('Missing Stripe signature');
      await webhooks.receive(request.body, signature);
      return { received: true };
    });
  };
