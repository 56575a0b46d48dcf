// Payments: checkouts, payments and reversals, boosts, subscriptions, weekend bookings, webhook events.
import type { Id, CreatedAt, Timestamp, NullableTimestamp, Defaulted } from './columns';

export type PaymentType = 'playerBoost' | 'ownerBoost' | 'subscription' | 'serverOfTheWeekend';

export interface CheckoutSessionsTable {
  id: string;
  userId: number;
  serverId: number | null;
  kind: PaymentType;
  plan: 'Pro' | 'Premium' | null;
  quantity: Defaulted<number>;
  amountCents: number;
  weekendStart: string | null;
  status: Defaulted<'open' | 'complete' | 'canceled' | 'expired'>;
  provider: 'test' | 'stripe';
  returnPath: Defaulted<string>;
  createdAt: CreatedAt;
  completedAt: NullableTimestamp;
  stripePaymentIntentId: string | null;
}

export interface PaymentsTable {
  id: Id;
  userId: number | null;
  serverId: number | null;
  checkoutSessionId: string | null;
  stripeInvoiceId: string | null;
  stripePaymentIntentId: string | null;
  /** The Stripe subscription an invoice payment paid for: its refund ends that plan. */
  stripeSubscriptionId: Defaulted<string | null>;
  type: PaymentType;
  amountCents: number;
  status: Defaulted<'paid' | 'refunded' | 'disputed'>;
  createdAt: CreatedAt;
}

/** A refund or dispute that arrived before the payment it takes back. */
export interface PaymentReversalsTable {
  id: Id;
  stripePaymentIntentId: string | null;
  stripeInvoiceId: string | null;
  status: 'refunded' | 'disputed';
  createdAt: CreatedAt;
}

export interface BoostsTable {
  id: Id;
  serverId: number;
  userId: number | null;
  paymentId: number | null;
  source: 'player' | 'owner' | 'premium_credit';
  amount: number;
  revokedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

export interface SubscriptionsTable {
  id: Id;
  userId: number;
  plan: 'Pro' | 'Premium';
  status: 'active' | 'past_due' | 'canceled';
  stripeSubscriptionId: string | null;
  currentPeriodEnd: NullableTimestamp;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
  canceledAt: NullableTimestamp;
  lastEventAt: NullableTimestamp;
  /** When a plan given back after a won dispute ends by itself; null for every other plan (Stripe or its owner ends those). */
  endsAt: NullableTimestamp;
}

/** How a Stripe dispute ended, as `charge.dispute.closed` reported it. */
export interface ClosedDisputesTable {
  stripeDisputeId: string;
  stripePaymentIntentId: string | null;
  /** Stripe's closing status: `won`, `lost`, `warning_closed`, `prevented`. */
  status: string;
  closedAt: CreatedAt;
}

export interface WeekendBookingsTable {
  id: Id;
  serverId: number;
  userId: number | null;
  paymentId: number | null;
  weekendStart: string;
  status: Defaulted<'active' | 'revoked'>;
  createdAt: CreatedAt;
}

export interface WebhookEventsTable {
  id: string;
  type: string;
  processedAt: CreatedAt;
}
