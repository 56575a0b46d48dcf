import type { Stripe, StripeGateway } from '../../adapters/stripe';
import { normalizePlan } from '../../../shared/roles';
import { badRequest } from '../../errors';
import { IN_OUR_FAVOUR } from './dispute-outcomes';
import type { FulfilmentService } from './fulfilment.service';
import type { SubscriptionsRepository } from './subscriptions.repository';

interface Deps {
  fulfilment: FulfilmentService;
  subscriptions: Pick<SubscriptionsRepository, 'userExists'>;
  /** Stripe: finds the invoice a refunded charge paid, stops a refunded subscription, checks signatures. */
  stripe?: StripeGateway | undefined;
  /** The signing secret of the webhook endpoint; without it (or without Stripe) there is no endpoint. */
  webhookSecret?: string | undefined;
  log?: { warn(obj: object, msg: string): void };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));
const planOf = (value: string | undefined) => normalizePlan(value) || null;

/**
 * What each verified Stripe event does. Every branch goes through the fulfilment service, which
 * records the event id in the transaction of its effect: a repeated or concurrent delivery
 * changes nothing the second time.
 */
export function webhookService({ fulfilment, subscriptions, stripe, webhookSecret, log }: Deps) {
  // `paused` and `incomplete_expired` give no plan; `unpaid` keeps it while Stripe retries.
  const subscriptionStatus = (status: Stripe.Subscription.Status): 'active' | 'past_due' | 'canceled' =>
    status === 'active' || status === 'trialing' ? 'active' : status === 'past_due' || status === 'unpaid' ? 'past_due' : 'canceled';

  /** The invoice a payment intent paid, asked of Stripe: charges do not name their invoice. */
  const invoiceOfIntent = async (intentId: string | null): Promise<string | null> => {
    if (!intentId || !stripe || (await fulfilment.knowsIntent(intentId))) return null;
    return stripe.findInvoiceOfPaymentIntent(intentId);
  };

  /** A refunded subscription must not bill again; the plan already ended here whatever this answers. */
  const stopAtStripe = async (subscriptionId: string | null) => {
    if (!subscriptionId || !stripe) return;
    try {
      await stripe.cancelSubscription(subscriptionId);
    } catch (err) {
      log?.warn({ err, subscriptionId }, 'stripe subscription cancel after refund failed');
    }
  };

  const handle = async (event: Stripe.Event): Promise<void> => {
    const eventRef = { id: event.id, type: event.type };
    const eventAt = new Date(event.created * 1000);
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        // Not paid yet (a delayed payment method): the credit waits for async_payment_succeeded,
        // and a subscription for its paid invoice or its `active` status.
        if (session.payment_status === 'unpaid') return;
        const result = await fulfilment.fulfil(session.id, {
          event: eventRef,
          paymentIntentId: idOf(session.payment_intent),
          stripeSubscriptionId: idOf(session.subscription),
          eventAt,
        });
        if (result === undefined) await fulfilment.once(eventRef, async () => undefined);
        return;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        const userId = Number(subscription.metadata?.userId);
        const plan = planOf(subscription.metadata?.plan);
        // `incomplete`: the first invoice is not paid yet, so no plan and nothing to end; its paid
        // invoice or the next update decides (a tie in seconds with it must not read as a cancel).
        if (!Number.isSafeInteger(userId) || !plan || subscription.status === 'incomplete') {
          await fulfilment.once(eventRef, async () => undefined);
          return;
        }
        const status = event.type === 'customer.subscription.deleted' ? 'canceled' : subscriptionStatus(subscription.status);
        const periodEnd = subscription.items?.data?.[0]?.current_period_end;
        await fulfilment.once(eventRef, async (tx) => {
          if (!(await subscriptions.userExists(userId, tx))) return;
          await fulfilment.applySubscription(tx, {
            userId,
            plan,
            status,
            stripeSubscriptionId: subscription.id,
            eventAt,
            currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
          });
        });
        return;
      }
      case 'invoice.paid': {
        const invoice = event.data.object;
        const details = invoice.parent?.subscription_details;
        const subscriptionId = idOf(
          (invoice as unknown as { subscription?: string | { id: string } | null }).subscription ?? details?.subscription ?? null,
        );
        const intentId = idOf(invoice.payments?.data?.find((p) => p.payment?.type === 'payment_intent')?.payment?.payment_intent);
        const metaUser = Number(details?.metadata?.userId);
        let ended: string | null = null;
        await fulfilment.once(eventRef, async (tx) => {
          if (!invoice.id) return;
          ({ endedSubscriptionId: ended } = await fulfilment.recordInvoice(tx, {
            invoiceId: invoice.id,
            stripeSubscriptionId: subscriptionId,
            paymentIntentId: intentId,
            amountCents: invoice.amount_paid,
            userId: Number.isSafeInteger(metaUser) ? metaUser : null,
            plan: planOf(details?.metadata?.plan),
            eventAt,
          }));
        });
        await stopAtStripe(ended);
        return;
      }
      case 'charge.refunded':
      case 'charge.dispute.created': {
        const object = event.data.object as { payment_intent?: string | { id: string } | null; refunded?: boolean };
        // A partial refund is a goodwill gesture: only a charge refunded in full takes the purchase back.
        if (event.type === 'charge.refunded' && object.refunded !== true) {
          await fulfilment.once(eventRef, async () => undefined);
          return;
        }
        const paymentIntentId = idOf(object.payment_intent);
        const invoiceId = await invoiceOfIntent(paymentIntentId);
        let ended: string | null = null;
        await fulfilment.once(eventRef, async (tx) => {
          ({ endedSubscriptionId: ended } =
            event.type === 'charge.refunded'
              ? await fulfilment.reverse(tx, { paymentIntentId, invoiceId }, 'refunded')
              : await fulfilment.reverse(tx, { paymentIntentId, invoiceId }, 'disputed', event.data.object.id));
        });
        await stopAtStripe(ended);
        return;
      }
      case 'charge.dispute.closed': {
        // Won (or an inquiry closed without a chargeback): what the dispute took comes back. Lost: recorded only.
        const dispute = event.data.object;
        const paymentIntentId = idOf(dispute.payment_intent);
        const invoiceId = IN_OUR_FAVOUR.includes(dispute.status) ? await invoiceOfIntent(paymentIntentId) : null;
        await fulfilment.once(eventRef, (tx) =>
          fulfilment.closeDispute(tx, { disputeId: dispute.id, status: dispute.status, paymentIntentId, invoiceId, eventAt }),
        );
        return;
      }
      default:
        // Other events are acknowledged and ignored.
        return;
    }
  };

  return {
    /** False without Stripe keys or a webhook secret: then the endpoint does not exist. */
    enabled: Boolean(stripe && webhookSecret),

    handle,

    /**
     * A webhook delivery: the signature is checked over the raw body (Stripe's 5-minute tolerance
     * refuses replays); only then is the event applied.
     */
    async receive(body: Buffer, signature: string): Promise<void> {
      if (!stripe || !webhookSecret) throw new Error('Stripe webhooks are not configured');
      let event: Stripe.Event;
      try {
        event = stripe.constructWebhookEvent(body, signature, webhookSecret);
      } catch {
        throw badRequest('Invalid Stripe signature');
      }
      await handle(event);
    },
  };
}

export type WebhookService = ReturnType<typeof webhookService>;
