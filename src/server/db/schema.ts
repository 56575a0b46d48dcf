import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types for Kysely, camelCased by CamelCasePlugin. Ids are bigint in the database and
 * numbers here (both drivers parse int8 to number, see database.ts); the API turns them into strings.
 */
type Id = Generated<number>;
// Updatable only so tests and maintenance can move time; no route sets it.
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  id: Id;
  username: string;
  passwordHash: string;
  role: 'player' | 'server_owner' | 'admin';
  email: string | null;
  /** When the link mailed to `email` was opened; null while unconfirmed. */
  emailConfirmedAt: Timestamp | null;
  /** The confirmed address, normalised (one account per mailbox); null until one is confirmed. */
  emailKey: string | null;
  /** The /24 or /64 network the account was registered from (registration bursts). */
  registeredNetwork: string | null;
  emailUnsubscribed: Defaulted<boolean>;
  subscriptionPlan: Defaulted<'' | 'Pro' | 'Premium'>;
  displayName: Defaulted<string>;
  profilePicture: string | null;
  tokenVersion: Defaulted<number>;
  stripeCustomerId: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export interface ServersTable {
  id: Id;
  ownerId: number;
  name: string;
  statusMessage: Defaulted<string>;
  bio: Defaulted<string>;
  backgroundColor: Defaulted<string>;
  textColor: Defaulted<string>;
  discordLink: string | null;
  profilePicture: string | null;
  banner: string | null;
  likes: Defaulted<number>;
  dislikes: Defaulted<number>;
  totalBoosts: Defaulted<number>;
  /** Premium's unspent boost credits: its owner spends them as boosts before paying. */
  boostCredits: Defaulted<number>;
  totalJoins: Defaulted<number>;
  views: Defaulted<number>;
  lastBoostedAt: NullableTimestamp;
  currentPlayers: Defaulted<number>;
  maxPlayers: number | null;
  game: string | null;
  gameHost: string | null;
  gamePort: number | null;
  /** The owner's cfx.re join code (FiveM, RedM), for the Join link. */
  cfxCode: string | null;
  /** From the last poll that answered: the map, the game's version, the names online (cleaned). */
  gameMap: string | null;
  gameVersion: string | null;
  playerNames: string[] | null;
  /** The owner's switch: false keeps the names off the server page. */
  showPlayerNames: Defaulted<boolean>;
  online: boolean | null;
  lastSeenAt: NullableTimestamp;
  lastPolledAt: NullableTimestamp;
  pollFailures: Defaulted<number>;
  nextPollAt: NullableTimestamp;
  pollError: string | null;
  hidden: Defaulted<boolean>;
  /** The server's filter ids in order, kept equal to `server_filters` by triggers (never written by the app). */
  filterIds: Defaulted<number[]>;
  /** The month (`YYYY-MM`, UTC) `monthVotes` counts daily votes of. */
  voteMonth: string | null;
  /** Counted daily votes in `voteMonth` (a vote in a new month starts again at 1). */
  monthVotes: Defaulted<number>;
  /** The transaction that last wrote the row (`xid8` as text), kept by a trigger: what the search index follows. */
  rowXid: Defaulted<string>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

/** A daily vote: once per player and server every 24 hours, with the name they play under. */
export interface DailyVotesTable {
  id: Id;
  userId: number;
  serverId: number;
  playerName: string | null;
  network: string | null;
  status: VoteStatusColumn;
  statusChangedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

/** Where a server hears of its votes: a signed webhook, a Votifier listener (v2 token or v1 public key). */
export interface RewardTargetsTable {
  serverId: number;
  webhookUrl: string | null;
  webhookSecret: string | null;
  votifierHost: string | null;
  votifierPort: number | null;
  votifierVersion: 1 | 2 | null;
  votifierToken: string | null;
  votifierPublicKey: string | null;
  updatedAt: Timestamp;
}

/** A player following a server: told when it comes back online or announces an event. */
export interface FollowsTable {
  userId: number;
  serverId: number;
  createdAt: CreatedAt;
}

/** An event an owner announced to the server's followers. */
export interface ServerEventsTable {
  id: Id;
  serverId: number;
  title: string;
  details: Defaulted<string>;
  startsAt: Date;
  createdAt: CreatedAt;
}

/** An owner's key to one server's read API: only its hash is kept. */
export interface ApiKeysTable {
  id: Id;
  serverId: number;
  name: string;
  /** The key's first characters, shown in the list and used to find it. */
  prefix: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  createdAt: CreatedAt;
  lastUsedAt: NullableTimestamp;
  revokedAt: NullableTimestamp;
}

/** One vote told to one target, with its attempts. */
export interface RewardDeliveriesTable {
  id: Id;
  serverId: number;
  dailyVoteId: number | null;
  kind: 'webhook' | 'votifier';
  test: Defaulted<boolean>;
  payload: ColumnType<RewardPayload, string, string>;
  status: Defaulted<'pending' | 'delivered' | 'failed'>;
  attempts: Defaulted<number>;
  lastError: string | null;
  createdAt: CreatedAt;
  finishedAt: NullableTimestamp;
}

/** What a delivery says about a vote. */
export interface RewardPayload {
  serverId: string;
  serverName: string;
  voteId: string | null;
  username: string;
  playerName: string | null;
  address: string;
  votedAt: string;
}

/** Every release or void of votes and joins by an admin. */
export interface FraudActionsTable {
  id: Id;
  adminId: number | null;
  action: 'void' | 'release';
  reason: Defaulted<string>;
  voteIds: Defaulted<number[]>;
  joinIds: Defaulted<number[]>;
  dailyVoteIds: Defaulted<number[]>;
  serverIds: Defaulted<number[]>;
  createdAt: CreatedAt;
}

/** Deleted servers, written by a trigger, so the search index's delta sees deletes. */
export interface ServerIndexTombstonesTable {
  serverId: number;
  rowXid: Defaulted<string>;
}

export interface MediaTable {
  id: Id;
  serverId: number | null;
  userId: number | null;
  kind: 'profile' | 'banner' | 'gallery' | 'avatar';
  storageKey: string;
  position: Defaulted<number>;
  width: number;
  height: number;
  bytes: number;
  createdAt: CreatedAt;
}

export interface FilterCategoriesTable {
  id: Id;
  name: string;
  position: Defaulted<number>;
}

export interface FiltersTable {
  id: Id;
  categoryId: number;
  name: string;
  position: Defaulted<number>;
}

export interface ServerFiltersTable {
  serverId: number;
  filterId: number;
}

/** Whether a vote or join counts: `held` ones wait for an admin, `voided` ones were undone (kept as a trace). */
type VoteStatusColumn = Defaulted<'counted' | 'held' | 'voided'>;

export interface JoinsTable {
  id: Id;
  userId: number;
  serverId: number;
  status: VoteStatusColumn;
  /** The voter's /24 or /64 network. */
  network: string | null;
  statusChangedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

export interface VotesTable {
  id: Id;
  userId: number;
  serverId: number;
  type: 'like' | 'dislike';
  review: string | null;
  hidden: Defaulted<boolean>;
  status: VoteStatusColumn;
  /** The voter's /24 or /64 network. */
  network: string | null;
  statusChangedAt: NullableTimestamp;
  /** When the voter last changed the review text. */
  editedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

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

export interface PushDeliveriesTable {
  promotionId: number;
  subscriptionId: number;
  status: Defaulted<'pending' | 'sent' | 'failed'>;
  attempts: Defaulted<number>;
  sentAt: NullableTimestamp;
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

export interface TestimonialsTable {
  id: Id;
  ownerId: number;
  content: string;
  hidden: Defaulted<boolean>;
  createdAt: CreatedAt;
}

export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updatedAt: Timestamp;
}

export interface SearchLogTable {
  id: Id;
  userId: number | null;
  filter: string;
  /** Who searched, once per filter and UTC day: `u:<user id>` or `n:<client network>`. */
  viewer: string;
  day: Defaulted<string>;
  createdAt: CreatedAt;
}

export interface WebhookEventsTable {
  id: string;
  type: string;
  processedAt: CreatedAt;
}

export interface ResetTokensTable {
  id: Id;
  userId: number;
  tokenHash: string;
  expiresAt: Date;
  usedAt: NullableTimestamp;
  createdAt: CreatedAt;
  /** Public half of a reset code: names the code a guess is aimed at. */
  selector: string | null;
  /** Wrong guesses so far; the code is burnt at the limit. */
  attempts: Defaulted<number>;
}

export interface RefreshTokensTable {
  id: Id;
  userId: number;
  /** One family per login: every rotated token of that session shares it. */
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  usedAt: NullableTimestamp;
  revokedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

export interface EmailChangesTable {
  id: Id;
  userId: number;
  newEmail: string;
  tokenHash: string;
  expiresAt: Date;
  usedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

export interface PlayerCountSamplesTable {
  serverId: number;
  sampledAt: Date;
  resolution: Defaulted<'raw' | 'hour' | 'day'>;
  players: number;
  maxPlayers: number | null;
  online: boolean;
  samples: Defaulted<number>;
  onlineSamples: Defaulted<number>;
}

export interface ServerViewsTable {
  serverId: number;
  viewer: string;
  day: string;
}

export interface ReportsTable {
  id: Id;
  reporterId: number | null;
  serverId: number;
  voteId: number | null;
  reason: string;
  status: Defaulted<'open' | 'actioned' | 'dismissed'>;
  createdAt: CreatedAt;
  resolvedAt: NullableTimestamp;
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

export interface Database {
  users: UsersTable;
  servers: ServersTable;
  media: MediaTable;
  filterCategories: FilterCategoriesTable;
  filters: FiltersTable;
  serverFilters: ServerFiltersTable;
  joins: JoinsTable;
  votes: VotesTable;
  checkoutSessions: CheckoutSessionsTable;
  payments: PaymentsTable;
  paymentReversals: PaymentReversalsTable;
  boosts: BoostsTable;
  subscriptions: SubscriptionsTable;
  weekendBookings: WeekendBookingsTable;
  notifications: NotificationsTable;
  pushSubscriptions: PushSubscriptionsTable;
  pushPromotions: PushPromotionsTable;
  pushDeliveries: PushDeliveriesTable;
  testimonials: TestimonialsTable;
  settings: SettingsTable;
  searchLog: SearchLogTable;
  serverIndexTombstones: ServerIndexTombstonesTable;
  fraudActions: FraudActionsTable;
  dailyVotes: DailyVotesTable;
  rewardTargets: RewardTargetsTable;
  rewardDeliveries: RewardDeliveriesTable;
  apiKeys: ApiKeysTable;
  follows: FollowsTable;
  serverEvents: ServerEventsTable;
  webhookEvents: WebhookEventsTable;
  resetTokens: ResetTokensTable;
  refreshTokens: RefreshTokensTable;
  emailChanges: EmailChangesTable;
  playerCountSamples: PlayerCountSamplesTable;
  serverViews: ServerViewsTable;
  reports: ReportsTable;
  emailCampaigns: EmailCampaignsTable;
  emailDeliveries: EmailDeliveriesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ServerRow = Selectable<ServersTable>;
export type NewServer = Insertable<ServersTable>;
