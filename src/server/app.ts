import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { serializerCompiler } from './lib/zod-encode';
import type { PageRenderer } from '../shared/prerender';
import { openDatabase, type DatabaseHandle } from './db/database';
import { migrateDatabase } from './db/migrate';
import { ensureReferenceData } from './db/reference-data';
import type { Mailer } from './adapters/mailer';
import { ensureAdmin } from './modules/auth';
import { usersRepository } from './modules/users';
import { registerErrorHandler } from './plugins/error-handler';
import { acceptEmptyJson } from './plugins/empty-json';
import { registerSecurityHeaders } from './plugins/security';
import { earlyErrorAnswers } from './plugins/framework-errors';
import { registerDocs } from './plugins/docs';
import { registerWebApp } from './plugins/web-app';
import type { RateLimitSettings } from './plugins/rate-limits';
import { registerRateLimiting } from './plugins/rate-limit-store';
import { DEFAULT_LOAD_SHEDDING, registerLoadShedding, type LoadSheddingOptions } from './plugins/load-shedding';
import { apiRoutes } from './routes';
import { AppError } from './errors';
import { MSG } from '../shared/messages';
import { seedDemo } from './db/seed/demo';
import { startDemoLiveFeed } from './db/seed/demo-live';
import type { CountingSettings } from './modules/servers';
import { registerMultipart } from './plugins/multipart';
import type { TargetPolicy } from './adapters/address-guard';
import { COUNTERS_LISTED_WITHIN_MS, type HoldRules } from './modules/servers';
import type { GuardedHttpsAgent } from './adapters/guarded-http';
import { DEFAULT_QUEUE_OPTIONS, type QueueOptions } from './adapters/queue';
import { startBackgroundWork } from './background';
import { registerMaintenanceMode } from './plugins/maintenance';
import { registerNoNulText } from './plugins/no-nul-text';
import type { PollSettings } from './modules/game-status';
import type { queryGame } from './adapters/game-query';
import { seoRoutes } from './modules/seo';
import { bannersRoutes } from './modules/banners';
import { createContainer } from './container';
import { FrontCache, requestId } from './lib/front-cache';
import { redisPrefix } from './lib/redis-prefix';
import { registerMetrics } from './plugins/metrics';

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
  /** Renders the public pages on the server (default: the web build's renderer, when built). */
  pageRenderer?: PageRenderer;
  /** How long after the web build's renderer failed to load it is tried again (default a minute). */
  rendererRetryMs?: number;
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
  /**
   * Where vote rewards may connect besides the public internet (exact loopback ip:port of tests'
   * local webhook and Votifier receivers) and the CA that signs the tests' HTTPS receiver.
   */
  voteRewards?: { policy?: TargetPolicy; ca?: string | Buffer };
  /** When votes and joins are held for review (default: from HOLD_RULES; tests pass their own). */
  holdRules?: HoldRules;
  /** Requests per API key and window on `/api/v1` (default 120 a minute). */
  ownerApiLimit?: { max: number; windowMs: number };
  /** How often the poller looks for due servers (default 10 s; 0: never, tests poll by hand). */
  pollerTickMs?: number;
  gameQuery?: typeof queryGame;
  /** Longest wait for each request to Discord (default 8 s; tests of a slow provider use less). */
  discordTimeoutMs?: number;
  /** Event-loop lag beyond which requests get 503 (tests lower it to see it work). */
  loadShedding?: Partial<LoadSheddingOptions>;
}

/** A request (headers and body) must arrive within 2 minutes. */
const REQUEST_TIMEOUT_MS = 120_000;

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
  // Hot reads a route put in memory are answered before Fastify (docs/decisions/039-front-cache.md).
  const front = new FrontCache();
  const early = earlyErrorAnswers();
  const app = Fastify({
    frameworkErrors: early.frameworkErrors,
    clientErrorHandler: early.clientErrorHandler,
    logger: options.logger ?? defaultLogger(),
    bodyLimit: 256 * 1024,
    genReqId: requestId,
    serverFactory: (handler) => {
      const server = http.createServer((request, response) => {
        if (!front.handle(request, response)) handler(request, response);
      });
      // What Fastify sets on a server it creates itself (its default keep-alive, no idle timeout).
      server.keepAliveTimeout = 72_000;
      server.requestTimeout = REQUEST_TIMEOUT_MS;
      server.setTimeout(0);
      // Read while the connection is open, a socket keeps its peer's address (Node caches it): a
      // request whose client hung up before anything asked for `request.ip` (a vote waiting for
      // its token's turn) would otherwise have none, and its rate limits nothing to key it by.
      server.on('connection', (socket: net.Socket) => void socket.remoteAddress);
      return server;
    },
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: 'idle',
    // Requests that arrive while closing (on connections opened before) are served, each answer
    // closing its connection: never Fastify's bare 503 to a request a proxy already sent here.
    return503OnClosing: false,
    // A request (headers and body) must arrive within 2 minutes: a sender that stalls mid-upload
    // cannot hold its memory and its slot forever.
    requestTimeout: REQUEST_TIMEOUT_MS,
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
  if (config.outboundTestTargets.length > 0) {
    app.log.warn(
      { targets: config.outboundTestTargets },
      'OUTBOUND_TEST_TARGETS is set: the outbound address guard lets these loopback targets through; for tests only',
    );
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // While draining and shutting down, answers to in-flight requests close their connection, so
  // keep-alive sockets cannot hold the server open after the last response, and a proxy opens its
  // next request elsewhere instead of sending it down a connection about to close.
  let closing = false;
  app.decorate('drain', () => {
    closing = true;
  });
  app.decorate('draining', () => closing);
  app.addHook('preClose', async () => {
    closing = true;
  });
  front.pauseWhile(() => closing || app.isUnderPressure());
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // A proxy that says it passes a GET answered 503 on to another instance (nginx with
  // `proxy_next_upstream http_503`, setting `X-Next-Upstream: http_503`) gets 503 for its reads
  // while this instance drains: it answers them from another instance and, counting the 503 as a
  // failure (`max_fails`), stops sending here at all, writes included, before this instance stops
  // accepting. Without that, nginx (which never sees /api/ready) keeps connecting until the
  // listener closes, and requests still on their way then are reset, a POST failing with them.
  // Writes are always served; so is every request from a proxy that does not say it.
  app.addHook('onRequest', (request, _reply, done) => {
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (closing && read && request.headers['x-next-upstream'] === 'http_503')
      done(new AppError(503, MSG.unavailable, { 'retry-after': '1' }));
    else done();
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
  if (config.admin) await ensureAdmin(usersRepository(db), config.admin);

  const queueOptions = { ...DEFAULT_QUEUE_OPTIONS, ...options.queue };
  let running = true;
  app.addHook('preClose', async () => {
    running = false;
  });
  const ctx = await createContainer(app, config, handle, options, queueOptions, front);
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
  if (seed) {
    await seedDemo(db, ctx.storage, app.log);
    // Written behind the services' backs: the search index and the caches read them before the first request.
    ctx.discovery.invalidate();
  }
  // A database with the demo in it keeps its demo game servers answering (none of them is real).
  if (await db.selectFrom('settings').select('key').where('key', '=', 'demoSeeded').executeTakeFirst()) {
    const feed = startDemoLiveFeed(db, app.log);
    app.addHook('onClose', async () => feed.stop());
  }
  await ctx.playerCount.init();
  ctx.playerCount.every(10_000, (err) => app.log.warn({ err }, 'player count refresh failed'));

  registerErrorHandler(app);
  acceptEmptyJson(app);
  await registerMetrics(app, handle);
  await registerLoadShedding(app, { ...DEFAULT_LOAD_SHEDDING, ...options.loadShedding });
  registerMaintenanceMode(app);
  registerNoNulText(app);
  const securityHeaders = await registerSecurityHeaders(app, config.publicUrl);
  front.setBaseHeaders(securityHeaders);
  early.setSecurityHeaders(securityHeaders);
  await registerRateLimiting(app, config.redisUrl, options.rateLimitNamespace ?? `${redisPrefix(config, handle)}rl:`);
  await registerMultipart(app);
  await registerDocs(app);
  await app.register(apiRoutes(ctx), { prefix: '/api' });
  await app.register(seoRoutes(ctx));
  await app.register(bannersRoutes(ctx));
  await registerWebApp(app, {
    webDist: options.webDist ?? path.join(ROOT, 'dist/web'),
    uploadsDir: ctx.storage.root,
    meta: (pathname, locale) => ctx.seo.metaTagsForPath(pathname, locale),
    appDescription: (locale) => ctx.seo.appDescription(locale),
    freshForMs: options.listCacheTtlMs ?? 5000,
    ...(options.pageRenderer ? { pageRenderer: options.pageRenderer } : {}),
    ...(options.rendererRetryMs !== undefined ? { rendererRetryMs: options.rendererRetryMs } : {}),
    front,
    // Anything but counters makes every page again; a vote, a join or a game poll round changes
    // only counters, which a page drawn with its content shows within a second of them.
    onContentChanged: (listener) =>
      ctx.discovery.onChange((change) => {
        if (change.kind === 'all') listener();
      }),
    onCountersChanged: (listener) =>
      ctx.discovery.onChange((change) => {
        if (change.kind !== 'all') listener();
      }),
    // Lists gather counter changes for a while, then are made again: a page begun in that time may
    // not show the change yet.
    answersBehindMs: COUNTERS_LISTED_WITHIN_MS,
  });
  return app;
}
