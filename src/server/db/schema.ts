import type { Insertable, Selectable, Updateable } from 'kysely';
import type {
  UsersTable,
  ResetTokensTable,
  RefreshTokensTable,
  EmailChangesTable,
  OauthStatesTable,
  DiscordSignupsTable,
} from './tables/accounts';
import type {
  ServersTable,
  MediaTable,
  FilterCategoriesTable,
  FiltersTable,
  ServerFiltersTable,
  ServerIndexTombstonesTable,
  ServerChangesTable,
  FollowsTable,
  ServerEventsTable,
  ApiKeysTable,
  PlayerCountSamplesTable,
  ServerViewsTable,
  SearchLogTable,
  GameClaimsTable,
} from './tables/servers';
import type { JoinsTable, VotesTable, DailyVotesTable, RewardTargetsTable, RewardDeliveriesTable, FraudActionsTable } from './tables/votes';
import type {
  CheckoutSessionsTable,
  PaymentsTable,
  PaymentReversalsTable,
  BoostsTable,
  SubscriptionsTable,
  ClosedDisputesTable,
  WeekendBookingsTable,
  WebhookEventsTable,
} from './tables/payments';
import type {
  NotificationsTable,
  PushSubscriptionsTable,
  PushPromotionsTable,
  PushDeliveriesTable,
  EmailCampaignsTable,
  EmailDeliveriesTable,
} from './tables/messaging';
import type { SettingsTable, TestimonialsTable, ReportsTable } from './tables/site';

/**
 * Table types for Kysely, camelCased by CamelCasePlugin, one file per part of the product under
 * `tables/`; this file names the database and is what the rest of the app imports.
 */
export type {
  UsersTable,
  ResetTokensTable,
  RefreshTokensTable,
  EmailChangesTable,
  OauthStatesTable,
  DiscordSignupsTable,
} from './tables/accounts';
export type {
  ServersTable,
  MediaTable,
  FilterCategoriesTable,
  FiltersTable,
  ServerFiltersTable,
  ServerIndexTombstonesTable,
  ServerChangesTable,
  FollowsTable,
  ServerEventsTable,
  ApiKeysTable,
  PlayerCountSamplesTable,
  ServerViewsTable,
  SearchLogTable,
  GameClaimsTable,
  ClaimAnswer,
} from './tables/servers';
export type {
  JoinsTable,
  VotesTable,
  DailyVotesTable,
  RewardTargetsTable,
  RewardDeliveriesTable,
  RewardPayload,
  FraudActionsTable,
} from './tables/votes';
export type {
  PaymentType,
  CheckoutSessionsTable,
  PaymentsTable,
  PaymentReversalsTable,
  BoostsTable,
  SubscriptionsTable,
  ClosedDisputesTable,
  WeekendBookingsTable,
  WebhookEventsTable,
} from './tables/payments';
export type {
  NotificationsTable,
  PushSubscriptionsTable,
  PushPromotionsTable,
  PushDeliveriesTable,
  EmailCampaignsTable,
  EmailDeliveriesTable,
} from './tables/messaging';
export type { SettingsTable, TestimonialsTable, ReportsTable } from './tables/site';

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
  closedDisputes: ClosedDisputesTable;
  weekendBookings: WeekendBookingsTable;
  notifications: NotificationsTable;
  pushSubscriptions: PushSubscriptionsTable;
  pushPromotions: PushPromotionsTable;
  pushDeliveries: PushDeliveriesTable;
  testimonials: TestimonialsTable;
  settings: SettingsTable;
  searchLog: SearchLogTable;
  serverIndexTombstones: ServerIndexTombstonesTable;
  serverChanges: ServerChangesTable;
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
  gameClaims: GameClaimsTable;
  oauthStates: OauthStatesTable;
  discordSignups: DiscordSignupsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ServerRow = Selectable<ServersTable>;
export type NewServer = Insertable<ServersTable>;
