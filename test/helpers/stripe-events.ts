import Stripe from 'stripe';
import type { TestApp } from './test-app';

const signer = new Stripe('sk_test_local');
let sequence = 0;

/** The webhook secret test apps with Stripe keys are built with. */
export const WEBHOOK_SECRET = 'whsec_test_secret_for_local_webhooks';

/** A Stripe event of `type` around `object`; `created` in seconds orders subscription events. */
export function stripeEvent(type: string, object: object, options: { id?: string; created?: number } = {}) {
  return {
    id: options.id ?? `evt_${process.pid}_${++sequence}_${Math.random().toString(36).slice(2, 8)}`,
    object: 'event',
    type,
    created: options.created ?? Math.floor(Date.now() / 1000),
    data: { object },
  };
}

/** Posts an event to the app's webhook, signed with the test secret as Stripe would. */
export function deliverEvent(t: TestApp, body: object) {
  const payload = JSON.stringify(body);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
}

/** `checkout.session.completed` for a one-time payment that was paid with `intent`. */
export const paidCheckout = (checkoutId: string, intent: string) =>
  stripeEvent('checkout.session.completed', {
    id: checkoutId,
    object: 'checkout.session',
    mode: 'payment',
    payment_status: 'paid',
    payment_intent: intent,
  });

/** A charge refunded in full. */
export const fullRefund = (intent: string) =>
  stripeEvent('charge.refunded', { id: `ch_${intent}`, object: 'charge', payment_intent: intent, refunded: true });

/** A subscription object of `status` for `userId`'s `plan`, as Stripe sends it in customer.subscription.* events. */
export const subscriptionObject = (id: string, userId: number, plan: 'Pro' | 'Premium', status: string) => ({
  id,
  object: 'subscription',
  status,
  metadata: { userId: String(userId), plan, kind: 'subscription' },
  items: { data: [{ current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400 }] },
});

/** `invoice.paid` for a subscription invoice, with its metadata as Stripe copies it from the subscription. */
export const paidInvoice = (invoiceId: string, subscriptionId: string, userId: number, plan: 'Pro' | 'Premium', cents: number) =>
  stripeEvent('invoice.paid', {
    id: invoiceId,
    object: 'invoice',
    amount_paid: cents,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscriptionId, metadata: { userId: String(userId), plan, kind: 'subscription' } },
    },
  });
