import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Context } from './context';
import type { DatabaseHandle } from './db/database';
import type { BuildOptions } from './app';
import { createMailer } from './adapters/mailer';
import { createLocalStorage } from './adapters/storage';
import { loadOrCreateSecret, randomSecret } from './lib/secrets';
import { authService, createTokenService, emailChangesRepository, resetCodesRepository, sessionsRepository } from './modules/auth';
import { activeUserLoader, usersRepository } from './modules/users';
import { playerCountRepository, playerCountService, sendCountOnConnect } from './modules/player-count';
import { attachSocket } from './plugins/socket';
import { DEFAULT_RATE_LIMITS, NO_NETWORK_LIMITS } from './plugins/rate-limits';
import { isDatabaseUnavailable } from './db/unavailable';
import { filtersRepository, loadFilterCatalog } from './modules/filters';
import { healthRepository, healthService } from './modules/health';
import { adminRepository, adminService } from './modules/admin';
import { statsRepository, statsService } from './modules/stats';
import { testimonialsRepository, testimonialsService } from './modules/testimonials';
import { seoRepository, seoService, SITE } from './modules/seo';
import { bannersService } from './modules/banners';
import { dailyVotesRepository, dailyVotesService } from './modules/daily-votes';
import { ownerApiRepository, ownerApiService } from './modules/owner-api';
import { followsRepository, followsService } from './modules/follows';
import { fraudRepository, fraudService } from './modules/fraud';
import { svgToPng } from './adapters/images';
import {
  audienceRepository,
  discoveryRepository,
  searchIndexRepository,
  discoveryService,
  serversRepository,
  serversService,
  serverWritesRepository,
  votesRepository,
  votesService,
  DEFAULT_HOLD_RULES,
  NO_HOLDS,
  heardChange,
  type CacheChange,
} from './modules/servers';
import { redisInvalidationBus } from './adapters/invalidation-bus';
import { redisPrefix } from './lib/redis-prefix';
import { playersRepository, playersService } from './modules/players';
import type { QueueOptions } from './adapters/queue';
import { FANOUT_QUEUE, notificationsRepository, notificationsService, promotionsRepository } from './modules/notifications';
import { settingsRepository, settingsService } from './modules/settings';
import { MASS_EMAIL_QUEUE, massEmailRepository, massEmailService, unsubscribeTokens } from './modules/email';
import { moderationRepository, moderationService } from './modules/moderation';
import { DEFAULT_POLL_SETTINGS, gameClaimsRepository, gameStatusRepository, gameStatusService } from './modules/game-status';
import { queryGame } from './adapters/game-query';
import { transactionRunner } from './db/transaction';
import type { FrontCache } from './lib/front-cache';
import { startJobQueue } from './wiring/job-queue';
import { pushSenderFor } from './wiring/push-sender';
import { voteRewardsFor } from './wiring/vote-rewards';
import { discordFor } from './wiring/discord';
import { paymentsFor } from './wiring/payments';
import { appMetrics } from './plugins/metrics-registry';

/**
 * The composition root: builds adapters, then repositories, then services, each given only
 * what it uses. `app.ts` decorates the result as `app.ctx` and hands each route plugin its part.
 * Starts the job queue (its workers start later, in `background.ts`).
 */
export async function createContainer(
  app: FastifyInstance,
  config: Config,
  handle: DatabaseHandle,
  options: BuildOptions,
  queueOptions: QueueOptions,
  front: FrontCache,
): Promise<Context> {
  const { db } = handle;
  // Services that group writes get this instead of the database.
  const inTransaction = transactionRunner(db);
  const now = options.now ?? (() => new Date());
  // Services count into it as they work; `registerMetrics` serves it.
  const metrics = appMetrics();
  const mailer =
    options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox') });
  if (!options.mailer) app.addHook('onClose', async () => mailer.close());
  const secret = config.jwtSecret ?? loadOrCreateSecret(config.dataDir, 'jwtSecret', randomSecret);
  const tokens = createTokenService(secret);
  const users = usersRepository(db);
  const storage = createLocalStorage(path.join(config.dataDir, 'uploads'));
  const auth = authService({
    users,
    sessions: sessionsRepository(db),
    resetCodes: resetCodesRepository(db, now),
    emailChanges: emailChangesRepository(db),
    inTransaction,
    tokens,
    mailer,
    publicUrl: config.publicUrl,
    now,
    onMailError: (err) => app.log.error({ err }, 'e-mail failed'),
  });
  const prefix = redisPrefix(config, handle);
  const io = attachSocket(app, { redisUrl: config.redisUrl, redisPrefix: prefix, trustProxy: config.trustProxy });
  const playerCount = playerCountService(playerCountRepository(db), (count) => io.emit('playerCountUpdated', count));
  sendCountOnConnect(io, playerCount);
  app.addHook('onClose', async () => playerCount.stop());

  const filters = await loadFilterCatalog(filtersRepository(db));
  const settings = settingsService({ repository: settingsRepository(db), onChange: () => discovery.invalidate() });
  const serversRepo = serversRepository(db);
  // A change drops the cached answers showing it here and, through Redis, on every other instance
  // (docs/decisions/023-hot-reads.md).
  // Another instance's change may arrive before this one's caches exist: nothing is cached then to drop.
  const heard: { apply?: (change: CacheChange) => void } = {};
  const bus = config.redisUrl
    ? redisInvalidationBus<unknown>(config.redisUrl, (change) => heard.apply?.(heardChange(change)), app.log, `${prefix}cache-invalidation`)
    : undefined;
  if (bus) {
    app.addHook('onClose', () => bus.close());
    // Listening before the first request, unless Redis does not answer soon.
    await Promise.race([bus.ready, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }
  const discovery = discoveryService({
    servers: serversRepo,
    discovery: discoveryRepository(db),
    audience: audienceRepository(db),
    storage,
    filters,
    now,
    settings,
    listCacheTtlMs: options.listCacheTtlMs ?? 5000,
    searchIndex: searchIndexRepository(db),
    // A card changes with its row (the index drops it then); only the 24-hour and 7-day counts drift with time.
    cardTtlMs: options.listCacheTtlMs === 0 ? 0 : 10 * 60_000,
    counting: options.counting,
    log: app.log,
    ...(bus ? { publish: (change: CacheChange) => bus.publish(change) } : {}),
  });
  heard.apply = (change) => discovery.applyChange(change);
  discovery.warmUp();
  const holdRules = options.holdRules ?? (config.holdRules ? DEFAULT_HOLD_RULES : NO_HOLDS);
  const votes = votesService({
    votes: votesRepository(db, holdRules),
    settings,
    now,
    onChange: (change) => discovery.invalidate(change),
  });
  /** A change to listed servers (default: any, so every cached list and page goes); the total of players online is counted again. */
  const onListingsChanged = (change: CacheChange = { kind: 'all' }) => {
    discovery.invalidate(change);
    void playerCount
      .refresh()
      .catch((err: unknown) =>
        (isDatabaseUnavailable(err) ? app.log.warn : app.log.error).call(app.log, { err }, 'player count refresh failed'),
      );
  };
  const onServersChanged = () => onListingsChanged();

  const push = pushSenderFor(config, options);
  const follows = followsService({ repository: followsRepository(db), now, push, log: app.log });
  const queue = await startJobQueue(app, handle, queueOptions);
  // OUTBOUND_TEST_TARGETS join the loopback targets a test build lets game queries and vote rewards reach.
  const allowTargets = (listed: readonly string[] = []) => [...config.outboundTestTargets, ...listed];
  const pollTargets = allowTargets(options.gamePoll?.allowTargets);
  const rewardPolicy = { ...options.voteRewards?.policy, allowTargets: allowTargets(options.voteRewards?.policy?.allowTargets) };
  const voteRewards = voteRewardsFor(app, db, queue, queueOptions, { voteRewards: { ...options.voteRewards, policy: rewardPolicy } }, now);
  const dailyVotes = dailyVotesService({
    repository: dailyVotesRepository(db, holdRules),
    now,
    onChange: (change) => discovery.invalidate(change),
    onCounted: (vote) => void voteRewards.onVote(vote),
    log: app.log,
  });
  dailyVotes.startMonthlyReset();

  const gameStatus = gameStatusService({
    repo: gameStatusRepository(db),
    claims: gameClaimsRepository(db),
    inTransaction,
    mailer,
    publicUrl: config.publicUrl,
    log: app.log,
    now,
    settings: { ...DEFAULT_POLL_SETTINGS, intervalMs: config.gamePollSeconds * 1000, ...options.gamePoll, allowTargets: pollTargets },
    query: options.gameQuery ?? queryGame,
    // The total of players online moves only with new counts; a round of failures changes only pages.
    onCountsChanged: (serverIds, checkedIds) =>
      serverIds.length > 0
        ? onListingsChanged({ kind: 'counts', serverIds, checkedIds })
        : discovery.invalidate({ kind: 'counts', serverIds, checkedIds }),
    onAddressChanged: onServersChanged,
    onBackOnline: (serverId) =>
      void follows.backOnline(serverId).catch((err: unknown) => app.log.warn({ err, serverId }, 'telling followers failed')),
    onPolled: metrics.polled,
    historyCacheTtlMs: options.listCacheTtlMs ?? 5000,
  });
  // A poll round writes a sample for each server it checked; other changes may hide or remove one.
  discovery.onChange((change) => {
    if (change.kind === 'counts') gameStatus.forgetHistory([...change.serverIds, ...change.checkedIds]);
    else if (change.kind === 'all') gameStatus.forgetHistory('all');
  });

  return {
    config,
    front,
    db,
    dbKind: handle.kind,
    dbName: handle.name,
    mailer,
    storage,
    tokens,
    users,
    activeUser: activeUserLoader(users),
    auth,
    discord: discordFor(app, { db, config, users, auth, inTransaction, mailer, now }, options.discordTimeoutMs),
    playerCount,
    filters,
    servers: serversService({
      servers: serversRepo,
      writes: serverWritesRepository(db),
      inTransaction,
      storage,
      filters,
      now,
      onServersChanged,
    }),
    discovery,
    votes,
    players: playersService({ repo: playersRepository(db), inTransaction, storage }),
    ...paymentsFor({ db, config, inTransaction, settings, now, log: app.log, onServersChanged }),
    notifications: notificationsService({
      notifications: notificationsRepository(db),
      promotions: promotionsRepository(db),
      inTransaction,
      push,
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
      campaigns: massEmailRepository(db),
      inTransaction,
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
    moderation: moderationService({ repository: moderationRepository(db), inTransaction, onChange: onServersChanged }),
    admin: adminService({
      repository: adminRepository(db),
      inTransaction,
      storage,
      settings,
      now,
      onChange: () => discovery.invalidate(),
    }),
    stats: statsService({ repository: statsRepository(db), now }),
    testimonials: testimonialsService({ repository: testimonialsRepository(db) }),
    seo: seoService({ repository: seoRepository(db), listedServer: (id) => discovery.listedServer(id), publicUrl: config.publicUrl }),
    dailyVotes,
    voteRewards,
    follows,
    fraud: fraudService({
      repository: fraudRepository(db),
      inTransaction,
      now,
      onChange: () => discovery.invalidate(),
      onDailyVotesReleased: (votes) => votes.forEach((vote) => void voteRewards.onVote(vote)),
    }),
    ownerApi: ownerApiService({ repository: ownerApiRepository(db), now, publicServer: (id) => discovery.publicServer(id) }),
    ownerApiLimit: options.ownerApiLimit ?? { max: 120, windowMs: 60_000 },
    banners: bannersService({ publicServer: (id) => discovery.publicServer(id), renderPng: svgToPng, site: SITE }),
    health: healthService({ repository: healthRepository(db), draining: () => app.draining(), warm: () => discovery.listsLoaded() }),
    gameStatus,
    io,
    // HOLD_RULES=off is for clients that all look like one network: its per-network limits go too.
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...(config.holdRules ? {} : NO_NETWORK_LIMITS), ...options.rateLimits },
    metrics,
    now,
  };
}
