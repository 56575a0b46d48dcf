import type { Stripe } from '../../adapters/stripe';
import { normalizePlan } from '../../../shared/roles';
import type { FulfilmentService } from './fulfilment.service';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

interface Deps {
  fulfilment: FulfilmentService;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/**
 * What each verified Stripe event does (issue 4). Every branch goes through the fulfilment
 * service, which records the event id in the transaction of its effect: a repeated or
 * concurrent delivery changes nothing the second time.
 */
export function webhookService({ fulfilment }: Deps) {
  const subscriptionStatus = (status: Stripe.Subscription.Status): 'active' | 'past_due' | 'canceled' =>
    status === 'active' || status === 'trialing' ? 'active' : status === 'past_due' || status === 'unpaid' ? 'past_due' : 'canceled';

  const paymentByIntent = async (trx: Kysely<Database>, intentId: string | null) => {
    if (!intentId) return undefined;
    return trx.selectFrom('payments').select(['id', 'status']).where('stripePaymentIntentId', '=', intentId).executeTakeFirst();
  };

  return {
    async handle(event: Stripe.Event): Promise<void> {
      const eventRef = { id: event.id, type: event.type };
      const eventAt = new Date(event.created * 1000);
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          // A delayed payment method completes the session unpaid; its credit waits for async_payment_succeeded.
          if (session.mode === 'payment' && session.payment_status !== 'paid') return;
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
          const plan = normalizePlan(subscription.metadata?.plan);
          if (!Number.isSafeInteger(userId) || plan === '') {
            await fulfilment.once(eventRef, async () => undefined);
            return;
          }
          const status = event.type === 'customer.subscription.deleted' ? 'canceled' : subscriptionStatus(subscription.status);
          const periodEnd = subscription.items?.data?.[0]?.current_period_end;
          await fulfilment.once(eventRef, async (trx) => {
            const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
            if (!user) return;
            await fulfilment.applySubscription(trx, {
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
          const subscriptionId = idOf(
            (invoice as unknown as { subscription?: string | { id: string } | null }).subscription ??
              invoice.parent?.subscription_details?.subscription ??
              null,
          );
          await fulfilment.once(eventRef, async (trx) => {
            const sub = subscriptionId
              ? await trx.selectFrom('subscriptions').select('userId').where('stripeSubscriptionId', '=', subscriptionId).executeTakeFirst()
              : undefined;
            const metaUser = Number(invoice.parent?.subscription_details?.metadata?.userId);
            const userId = sub?.userId ?? (Number.isSafeInteger(metaUser) ? metaUser : null);
            if (!userId || !invoice.id) return;
            await trx
              .insertInto('payments')
              .values({ userId, type: 'subscription', amountCents: invoice.amount_paid, stripeInvoiceId: invoice.id, createdAt: eventAt })
              .onConflict((oc) => oc.column('stripeInvoiceId').doNothing())
              .execute();
          });
          return;
        }
        case 'charge.refunded':
        case 'charge.dispute.created': {
          const object = event.data.object as { payment_intent?: string | { id: string } | null };
          const intentId = idOf(object.payment_intent);
          await fulfilment.once(eventRef, async (trx) => {
            const payment = await paymentByIntent(trx, intentId);
            if (payment && payment.status === 'paid')
              await fulfilment.revoke(trx, payment.id, event.type === 'charge.refunded' ? 'refunded' : 'disputed');
          });
          return;
        }
        default:
          // Other events are acknowledged and ignored.
          return;
      }
    },
  };
}

export type WebhookService = ReturnType<typeof webhookService>;
