// What is sent to people: notifications, push subscriptions, promotions and deliveries, mass e-mail.
import type { Id, CreatedAt, Timestamp, NullableTimestamp, Defaulted } from './columns';

export interface NotificationsTable {
  id: Id;
  userId: number;
  title: string;
  message: string;
  link: string | null;
  readAt: NullableTimestamp;
  promotionId: number | null;
  createdAt: CreatedAt;
}

export interface PushSubscriptionsTable {
  id: Id;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export interface PushPromotionsTable {
  id: Id;
  ownerId: number;
  serverId: number;
  playerCount: number;
  isEvent: Defaulted<boolean>;
  eventName: string | null;
  eventTime: string | null;
  recipients: Defaulted<number>;
  status: Defaulted<'queued' | 'sending' | 'done'>;
  delivered: Defaulted<number>;
  createdAt: CreatedAt;
}

export interface PushDeliveriesTable {
  promotionId: number;
  subscriptionId: number;
  status: Defaulted<'pending' | 'sent' | 'failed'>;
  attempts: Defaulted<number>;
  sentAt: NullableTimestamp;
}

export interface EmailCampaignsTable {
  id: Id;
  createdBy: number | null;
  subject: string;
  content: string;
  target: 'owners' | 'players';
  status: Defaulted<'queued' | 'sending' | 'done' | 'failed'>;
  total: Defaulted<number>;
  sent: Defaulted<number>;
  skipped: Defaulted<number>;
  failed: Defaulted<number>;
  createdAt: CreatedAt;
  finishedAt: NullableTimestamp;
}

export interface EmailDeliveriesTable {
  campaignId: number;
  userId: number;
  status: Defaulted<'pending' | 'sent' | 'skipped' | 'failed'>;
  sentAt: NullableTimestamp;
}
