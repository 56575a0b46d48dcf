import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { Database, UserRow } from './db/schema';
import type { DatabaseKind } from './db/database';
import type { Mailer } from './adapters/mailer';
import type { Storage } from './adapters/storage';
import type { TokenService } from './modules/auth/tokens';
import type { AuthService } from './modules/auth/auth.service';
import type { UsersRepository } from './modules/users/users.repository';
import type { PlayerCountService } from './modules/player-count/player-count.service';
import type { RateLimitSettings } from './plugins/rate-limits';
import type { SocketServer } from './plugins/socket';
import type { FilterCatalog } from './modules/filters/filters.catalog';
import type { ServersService } from './modules/servers/servers.service';
import type { DiscoveryService } from './modules/servers/discovery.service';
import type { VotesService } from './modules/servers/votes.service';
import type { PlayersService } from './modules/players/players.service';
import type { Stripe } from './adapters/stripe';
import type { CheckoutService } from './modules/payments/checkout.service';
import type { FulfilmentService } from './modules/payments/fulfilment.service';
import type { WebhookService } from './modules/payments/webhook.service';
import type { NotificationsService } from './modules/notifications/notifications.service';
import type { PushSender } from './adapters/web-push';
import type { Queue } from './adapters/queue';
import type { SettingsService } from './modules/settings/settings.service';
import type { MassEmailService } from './modules/email/mass-email.service';
import type { ModerationService } from './modules/moderation/moderation.service';
import type { GameStatusService } from './modules/game-status/game-status.service';

/** What routes and services share: built once in `build()`, reached as `app.ctx`. */
export interface Context {
  config: Config;
  db: Kysely<Database>;
  dbKind: DatabaseKind;
  mailer: Mailer;
  storage: Storage;
  tokens: TokenService;
  users: UsersRepository;
  auth: AuthService;
  playerCount: PlayerCountService;
  filters: FilterCatalog;
  servers: ServersService;
  discovery: DiscoveryService;
  votes: VotesService;
  players: PlayersService;
  stripe: Stripe | undefined;
  fulfilment: FulfilmentService;
  checkout: CheckoutService;
  webhooks: WebhookService;
  notifications: NotificationsService;
  push: PushSender;
  queue: Queue;
  settings: SettingsService;
  massEmail: MassEmailService;
  moderation: ModerationService;
  gameStatus: GameStatusService;
  io: SocketServer;
  rateLimits: RateLimitSettings;
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Context;
  }
  interface FastifyRequest {
    /** Set by the /api/admin guard. */
    adminUser?: UserRow;
  }
}
