import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { Database } from './db/schema';
import type { DatabaseKind } from './db/database';
import type { Mailer } from './adapters/mailer';
import type { Storage } from './adapters/storage';
import type { AuthService, TokenService } from './modules/auth';
import type { ActiveUserLoader, UsersRepository } from './modules/users';
import type { PlayerCountService } from './modules/player-count';
import type { RateLimitSettings } from './plugins/rate-limits';
import type { SocketServer } from './plugins/socket';
import type { FilterCatalog } from './modules/filters';
import type { HealthService } from './modules/health';
import type { AdminService } from './modules/admin';
import type { StatsService } from './modules/stats';
import type { TestimonialsService } from './modules/testimonials';
import type { SeoService } from './modules/seo';
import type { BannersService } from './modules/banners';
import type { DailyVotesService } from './modules/daily-votes';
import type { VoteRewardsService } from './modules/vote-rewards';
import type { OwnerApiLimit, OwnerApiService } from './modules/owner-api';
import type { FollowsService } from './modules/follows';
import type { FraudService } from './modules/fraud';
import type { DiscoveryService, ServersService, VotesService } from './modules/servers';
import type { PlayersService } from './modules/players';
import type { StripeGateway } from './adapters/stripe';
import type { BoostCreditsService, CheckoutService, FulfilmentService, PaymentsService, WebhookService } from './modules/payments';
import type { NotificationsService } from './modules/notifications';
import type { PushSender } from './adapters/web-push';
import type { Queue } from './adapters/queue';
import type { FrontCache } from './lib/front-cache';
import type { SettingsService } from './modules/settings';
import type { MassEmailService } from './modules/email';
import type { ModerationService } from './modules/moderation';
import type { GameStatusService } from './modules/game-status';
import type { DiscordService } from './modules/discord';
import type { AppMetrics } from './plugins/metrics-registry';

/** What routes and services share: built once in `build()`, reached as `app.ctx`. */
export interface Context {
  config: Config;
  /** Hot reads answered before Fastify; routes put what is the same for everyone in it. */
  front: FrontCache;
  db: Kysely<Database>;
  dbKind: DatabaseKind;
  /** The database's name (what Redis names of this deployment derive from). */
  dbName: string;
  mailer: Mailer;
  storage: Storage;
  tokens: TokenService;
  users: UsersRepository;
  /** The user an access token names (batched across requests), or undefined. */
  activeUser: ActiveUserLoader;
  auth: AuthService;
  discord: DiscordService;
  playerCount: PlayerCountService;
  filters: FilterCatalog;
  servers: ServersService;
  discovery: DiscoveryService;
  votes: VotesService;
  players: PlayersService;
  /** Stripe's calls, or undefined without STRIPE_SECRET_KEY (the built-in test checkout then). */
  stripe: StripeGateway | undefined;
  fulfilment: FulfilmentService;
  checkout: CheckoutService;
  boostCredits: BoostCreditsService;
  webhooks: WebhookService;
  /** The payments page's reads: plan and history. */
  payments: PaymentsService;
  notifications: NotificationsService;
  push: PushSender;
  queue: Queue;
  settings: SettingsService;
  massEmail: MassEmailService;
  moderation: ModerationService;
  admin: AdminService;
  stats: StatsService;
  testimonials: TestimonialsService;
  seo: SeoService;
  banners: BannersService;
  dailyVotes: DailyVotesService;
  voteRewards: VoteRewardsService;
  ownerApi: OwnerApiService;
  follows: FollowsService;
  fraud: FraudService;
  ownerApiLimit: OwnerApiLimit;
  health: HealthService;
  gameStatus: GameStatusService;
  io: SocketServer;
  rateLimits: RateLimitSettings;
  /** The Prometheus registry and the counters services feed (`GET /metrics`). */
  metrics: AppMetrics;
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Context;
    /**
     * The first step of a graceful shutdown: `/api/ready` answers 503 at once and every answer
     * closes its connection, while requests are still served; `close()` follows after a delay in
     * which the load balancer stops sending new ones.
     */
    drain(): void;
    /** Whether {@link drain} was called (or the app is closing). */
    draining(): boolean;
  }
}
