import crypto from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Context } from './context';
import { openDatabase, type DatabaseHandle } from './db/database';
import { migrateDatabase } from './db/migrate';
import { ensureReferenceData } from './db/reference-data';
import { createMailer, type Mailer } from './adapters/mailer';
import { createLocalStorage } from './adapters/storage';
import { loadOrCreateSecret, randomSecret } from './lib/secrets';
import { createTokenService } from './modules/auth/tokens';
import { authService } from './modules/auth/auth.service';
import { ensureAdmin } from './modules/auth/admin-bootstrap';
import { usersRepository } from './modules/users/users.repository';
import { playerCountService } from './modules/player-count/player-count.service';
import { registerErrorHandler } from './plugins/error-handler';
import { registerSecurityHeaders } from './plugins/security';
import { registerDocs } from './plugins/docs';
import { registerWebApp } from './plugins/web-app';
import { attachSocket } from './plugins/socket';
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from './plugins/rate-limits';
import { registerRateLimiting } from './plugins/rate-limit-store';
import { DEFAULT_LOAD_SHEDDING, registerLoadShedding, type LoadSheddingOptions } from './plugins/load-shedding';
import { isDatabaseUnavailable } from './db/unavailable';
import { sendCountOnConnect } from './modules/player-count/player-count.socket';
import { apiRoutes } from './routes';
import { seedDemo } from './db/seed/demo';
import { loadFilterCatalog } from './modules/filters/filters.catalog';
import { serversService } from './modules/servers/servers.service';
import { discoveryService } from './modules/servers/discovery.service';
import type { CountingSettings } from './modules/servers/audience-counter';
import { votesService } from './modules/servers/votes.service';
import { playersService } from './modules/players/players.service';
import { registerMultipart } from './plugins/multipart';
import { createStripeClient } from './adapters/stripe';
import { fulfilmentService } from './modules/payments/fulfilment.service';
import { checkoutService } from './modules/payments/checkout.service';
import { webhookService } from './modules/payments/webhook.service';
import type { GuardedHttpsAgent } from './adapters/guarded-http';
import { createQueue, DEFAULT_QUEUE_OPTIONS, type QueueOptions } from './adapters/queue';
import { createPushSender, generateVapidKeys } from './adapters/web-push';
import { notificationsService } from './modules/notifications/notifications.service';
import { FANOUT_QUEUE } from './modules/notifications/fanout.worker';
import { startBackgroundWork } from './background';
import { settingsService } from './modules/settings/settings.service';
import { registerMaintenanceMode } from './plugins/maintenance';
import { registerNoNulText } from './plugins/no-nul-text';
import { MASS_EMAIL_QUEUE, massEmailService } from './modules/email/mass-email.service';
import { unsubscribeTokens } from './modules/email/unsubscribe';
import { moderationService } from './modules/moderation/moderation.service';
import { DEFAULT_POLL_SETTINGS, gameStatusService, type PollSettings } from './modules/game-status/game-status.service';
import { queryGame } from './adapters/game-query';
import { metaForPath, metaTags } from './modules/seo/meta';
import { seoRoutes } from './modules/seo/seo.routes';

/** What tests (and tools) may hand in instead of what the config would create. */
export interface BuildOptions {
  /** An open database; when given, `build` neither opens nor closes it. */
  database?: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  mailer?: Mailer;
  rateLimits?: Partial<RateLimitSettings>;
  /** Prefix of rate-limit keys in Redis, so parallel test apps do not share counters. */
  rateLimitNamespace?: string;
  webDist?: string;
  now?: () => Date;
  /** How long listing pages are served from memory (default 5 s; tests that write rows directly use 0). */
  listCacheTtlMs?: number;
  /** Per-network limits and write interval of the view and popular-filter counts. */
  counting?: Partial<CountingSettings>;
  queue?: Partial<QueueOptions>;
  /** Guarded agent for web-push requests (tests trust and allow exactly their local HTTPS endpoint with it). */
  pushAgent?: GuardedHttpsAgent;
  /** false: this instance queues jobs but runs no workers (tests stop and start workers). */
  runWorkers?: boolean;
  /** Mass e-mail throttle (default 10 a second). */
  emailsPerSecond?: number;
  /** Game status polling; `allowTargets` (exact loopback ip:port) is for tests' local fake game servers only. */
  gamePoll?: Partial<PollSettings>;
  /** How often the poller looks for due servers (default 10 s; 0: never, tests poll by hand). */
  pollerTickMs?: number;
  gameQuery?: typeof queryGame;
  /** Event-loop lag beyond which requests get 503 (tests lower it to see it work). */
  loadShedding?: Partial<LoadSheddingOptions>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

function defaultLogger(): FastifyServerOptions['logger'] {
  const pretty = process.stdout.isTTY && process.env.NODE_ENV !== 'production';
  return { level: process.env.LOG_LEVEL ?? 'info', ...(pretty ? { transport: { target: 'pino-pretty' } } : {}) };
}

/**
 * Builds the whole app without listening: database migrated, reference data present, admin
 * ensured, demo data seeded when asked, routes registered. `server.ts` listens; tests inject.
 */
export async function build(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? defaultLogger(),
    bodyLimit: 256 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: 'idle',
    // A request (headers and body) must arrive within 2 minutes: a sender that stalls mid-upload
    // cannot hold its memory and its slot forever.
    requestTimeout: 120_000,
    // A number means that many proxy hops are trusted (proxy-addr's `(address, hop) => hop < n`).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
  });
  if (config.trustProxy === true) {
    app.log.warn(
      "TRUST_PROXY=true believes any X-Forwarded-For, so clients can pick the address rate limits see: set the number of proxy hops or the proxies' addresses instead",
    );
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // While shutting down, answers to in-flight requests close their connection, so keep-alive
  // sockets cannot hold the server open after the last response.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
  });

  const handle =
    options.database ??
    (await openDatabase(
      config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(config.dataDir, 'db') },
    ));
  if (!options.database) app.addHook('onClose', () => handle.close());
  const { db } = handle;
  await migrateDatabase(handle, options.database ? undefined : config.databaseUrl);
  await ensureReferenceData(db);
  // Before anything starts: a refused admin bootstrap stops start-up with nothing left running.
  if (config.admin) await ensureAdmin(db, config.admin);

  const now = options.now ?? (() => new Date());
  const mailer =
    options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox') });
  if (!options.mailer) app.addHook('onClose', async () => mailer.close());
  const secret = config.jwtSecret ?? loadOrCreateSecret(config.dataDir, 'jwtSecret', randomSecret);
  const tokens = createTokenService(secret);
  const storage = createLocalStorage(path.join(config.dataDir, 'uploads'));
  const io = attachSocket(app, { redisUrl: config.redisUrl, trustProxy: config.trustProxy });
  const playerCount = playerCountService(db, (count) => io.emit('playerCountUpdated', count));
  sendCountOnConnect(io, playerCount);
  app.addHook('onClose', async () => playerCount.stop());

  const filters = await loadFilterCatalog(db);
  const settings = settingsService(db, () => discovery.invalidate());
  const discovery = discoveryService({
    db,
    storage,
    filters,
    now,
    settings,
    listCacheTtlMs: options.listCacheTtlMs ?? 5000,
    counting: options.counting,
    log: app.log,
  });
  const onServersChanged = () => {
    discovery.invalidate();
    void playerCount
      .refresh()
      .catch((err: unknown) =>
        (isDatabaseUnavailable(err) ? app.log.warn : app.log.error).call(app.log, { err }, 'player count refresh failed'),
      );
  };

  const stripe = createStripeClient(config.stripe);

  const vapid = config.vapid ?? JSON.parse(loadOrCreateSecret(config.dataDir, 'vapid', () => JSON.stringify(generateVapidKeys())));
  const push = createPushSender(
    {
      publicKey: vapid.publicKey,
      privateKey: vapid.privateKey,
      subject:
        config.vapid?.subject ??
        (config.publicUrl.startsWith('https://')
          ? config.publicUrl
          : `mailto:${config.mailFrom.includes('@') ? config.mailFrom : 'no-reply@localhost'}`),
    },
    options.pushAgent,
  );
  const queueOptions = { ...DEFAULT_QUEUE_OPTIONS, ...options.queue };
  const queue = createQueue(handle, queueOptions);
  // A database outage is waited out (warn); anything else is a bug (error).
  queue.on('error', (err) => (isDatabaseUnavailable(err) ? app.log.warn : app.log.error).call(app.log, { err }, 'job queue error'));
  await queue.start();
  await queue.createQueue(FANOUT_QUEUE);
  await queue.createQueue(MASS_EMAIL_QUEUE);
  let running = true;
  app.addHook('preClose', async () => {
    running = false;
  });
  app.addHook('onClose', async () => {
    await queue.stop({ graceful: true, wait: true, timeout: 5000, close: true });
  });
  const fulfilment = fulfilmentService({ db, now, onChange: onServersChanged });

  const ctx: Context = {
    config,
    db,
    dbKind: handle.kind,
    mailer,
    storage,
    tokens,
    users: usersRepository(db),
    auth: authService({
      db,
      tokens,
      mailer,
      publicUrl: config.publicUrl,
      now,
      onMailError: (err) => app.log.error({ err }, 'e-mail failed'),
    }),
    playerCount,
    filters,
    servers: serversService({ db, storage, filters, now, onServersChanged, fulfilment }),
    discovery,
    votes: votesService({ db, settings, onChange: discovery.invalidate }),
    players: playersService({ db, storage }),
    stripe,
    fulfilment,
    checkout: checkoutService({ db, stripe, fulfilment, settings, publicUrl: config.publicUrl, now, log: app.log }),
    webhooks: webhookService({ fulfilment, stripe, log: app.log }),
    notifications: notificationsService({
      db,
      now,
      pushHosts: config.pushEndpointHosts,
      enqueueFanout: async (promotionId) => {
        await queue.send(
          FANOUT_QUEUE,
          { promotionId },
          { retryLimit: 10, retryDelay: queueOptions.retryDelaySeconds, expireInSeconds: queueOptions.expireInSeconds },
        );
      },
    }),
    push,
    queue,
    settings,
    massEmail: massEmailService({
      db,
      mailer,
      tokens: unsubscribeTokens(secret),
      publicUrl: config.publicUrl,
      enqueue: async (campaignId) => {
        await queue.send(
          MASS_EMAIL_QUEUE,
          { campaignId },
          { retryLimit: 10, retryDelay: queueOptions.retryDelaySeconds, expireInSeconds: 3600 },
        );
      },
    }),
    moderation: moderationService({ db, onChange: onServersChanged }),
    gameStatus: gameStatusService({
      db,
      now,
      settings: { ...DEFAULT_POLL_SETTINGS, intervalMs: config.gamePollSeconds * 1000, ...options.gamePoll },
      query: options.gameQuery ?? queryGame,
      onCountsChanged: onServersChanged,
    }),
    io,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    now,
  };
  app.decorate('ctx', ctx);

  if (options.runWorkers !== false) {
    await startBackgroundWork(app, {
      pollingIntervalSeconds: queueOptions.pollingIntervalSeconds,
      emailsPerSecond: options.emailsPerSecond ?? 10,
      pollerTickMs: options.pollerTickMs ?? 10_000,
      running: () => running,
    });
  }

  const seed = config.seedDemo ?? (handle.kind === 'pglite' && handle.created);
  if (seed) await seedDemo(db, storage, app.log);
  await playerCount.init();
  playerCount.every(10_000, (err) => app.log.warn({ err }, 'player count refresh failed'));

  registerErrorHandler(app);
  await registerLoadShedding(app, { ...DEFAULT_LOAD_SHEDDING, ...options.loadShedding });
  registerMaintenanceMode(app);
  registerNoNulText(app);
  await registerSecurityHeaders(app, config.publicUrl);
  await registerRateLimiting(app, config.redisUrl, options.rateLimitNamespace);
  await registerMultipart(app);
  await registerDocs(app);
  await app.register(apiRoutes, { prefix: '/api' });
  await app.register(seoRoutes);
  await registerWebApp(app, {
    webDist: options.webDist ?? path.join(ROOT, 'dist/web'),
    uploadsDir: storage.root,
    meta: async (pathname) => metaTags(await metaForPath(db, config.publicUrl, pathname)),
  });
  return app;
}
