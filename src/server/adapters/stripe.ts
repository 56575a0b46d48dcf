import Stripe from 'stripe';

/**
 * The official Stripe client, or undefined without STRIPE_SECRET_KEY (then the built-in test
 * checkout takes payments, decisions §6). STRIPE_API_URL points it at another host: the tests'
 * local fake Stripe.
 */
export function createStripeClient(options: { secretKey: string | undefined; apiUrl: string | undefined }): Stripe | undefined {
  if (!options.secretKey) return undefined;
  const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
  return new Stripe(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === 'http:' ? 80 : 443)),
          protocol: api.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

export type { Stripe };
