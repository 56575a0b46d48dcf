import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type Stripe from 'stripe';

const require = createRequire(import.meta.url);

/**
 * The official Stripe client, or undefined without STRIPE_SECRET_KEY (then the built-in test
 * checkout takes payments, docs/decisions/008-one-fulfilment-path.md). STRIPE_API_URL points it
 * at another host: the tests' local fake Stripe.
 */
export function createStripeClient(options: { secretKey: string | undefined; apiUrl: string | undefined }): Stripe | undefined {
  if (!options.secretKey) return undefined;
  const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
  // Required only here: the SDK is ~5 MB resident, and a site without a Stripe key never uses it.
  const StripeClient = require('stripe') as typeof Stripe;
  return new StripeClient(options.secretKey, {
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

/** What a Stripe Checkout session sells: one line at a server-decided price. */
export interface CheckoutSessionInput {
  /** `subscription` bills the price monthly; `payment` charges it once. */
  mode: 'payment' | 'subscription';
  amountCents: number;
  /** The product name the buyer sees at Stripe. */
  productName: string;
  clientReferenceId: string;
  customerEmail: string | null;
  /** Copied onto the session and onto its subscription or payment intent, for the webhooks. */
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
}

/** The Stripe calls the payments module makes, so services never hold the SDK itself. */
export interface StripeGateway {
  /** Creates a Checkout session; its `url` is where the buyer pays. */
  createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string | null }>;
  /** Cancels a subscription at Stripe: it bills no more. */
  cancelSubscription(subscriptionId: string): Promise<void>;
  /** The invoice a payment intent paid, or null: a charge does not name its invoice. */
  findInvoiceOfPaymentIntent(paymentIntentId: string): Promise<string | null>;
  /** Checks a webhook's signature over its raw body and parses it; throws when it does not match. */
  constructWebhookEvent(body: Buffer, signature: string, secret: string): Stripe.Event;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/** The gateway over a Stripe client. */
export function stripeGateway(stripe: Stripe): StripeGateway {
  return {
    async createCheckoutSession(input) {
      const subscription = input.mode === 'subscription';
      const session = await stripe.checkout.sessions.create(
        {
          mode: input.mode,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: input.amountCents,
                product_data: { name: input.productName },
                ...(subscription ? { recurring: { interval: 'month' } } : {}),
              },
            },
          ],
          client_reference_id: input.clientReferenceId,
          ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
          metadata: input.metadata,
          ...(subscription ? { subscription_data: { metadata: input.metadata } } : { payment_intent_data: { metadata: input.metadata } }),
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        // A retried request creates no second session.
        { idempotencyKey: `checkout-${crypto.randomUUID()}` },
      );
      return { id: session.id, url: session.url };
    },

    async cancelSubscription(subscriptionId) {
      await stripe.subscriptions.cancel(subscriptionId);
    },

    async findInvoiceOfPaymentIntent(paymentIntentId) {
      const found = await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntentId }, limit: 1 });
      return idOf(found.data[0]?.invoice);
    },

    constructWebhookEvent(body, signature, secret) {
      return stripe.webhooks.constructEvent(body, signature, secret);
    },
  };
}

/** The Stripe gateway, or undefined without STRIPE_SECRET_KEY (the built-in test checkout then). */
export function createStripeGateway(options: { secretKey: string | undefined; apiUrl: string | undefined }): StripeGateway | undefined {
  const client = createStripeClient(options);
  return client ? stripeGateway(client) : undefined;
}

export type { Stripe };
