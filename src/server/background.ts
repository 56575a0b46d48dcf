import type { FastifyInstance } from 'fastify';
import { FANOUT_QUEUE } from './modules/notifications';
import { MASS_EMAIL_QUEUE } from './modules/email';
import { VOTE_REWARDS_QUEUE } from './modules/vote-rewards';
import { isDatabaseUnavailable } from './db/unavailable';
import { startBackups } from './ops/backup';

export interface BackgroundOptions {
  pollingIntervalSeconds: number;
  emailsPerSecond: number;
  /** 0: no game status poller (tests poll by hand). */
  pollerTickMs: number;
  /** False once the app is closing: workers stop between two deliveries and leave the rest to a retry. */
  running: () => boolean;
}

/**
 * The work an instance does besides answering requests: the queue's workers (push fan-out,
 * mass e-mail) and the game status poller. Every instance may run them; the queue and the
 * poller's claims share the work out.
 */
export async function startBackgroundWork(app: FastifyInstance, options: BackgroundOptions): Promise<void> {
  const { queue, notifications, massEmail, gameStatus, metrics } = app.ctx;
  const every = { pollingIntervalSeconds: options.pollingIntervalSeconds };
  const sendPromotion = notifications.worker({ log: app.log, running: options.running });
  await queue.work<{ promotionId: number }>(
    FANOUT_QUEUE,
    every,
    metrics.countFailures(FANOUT_QUEUE, async (jobs) => {
      for (const job of jobs) await sendPromotion(job.data.promotionId);
    }),
  );
  const sendCampaign = massEmail.worker({ log: app.log, running: options.running, perSecond: options.emailsPerSecond });
  await queue.work<{ campaignId: number }>(
    MASS_EMAIL_QUEUE,
    every,
    metrics.countFailures(MASS_EMAIL_QUEUE, async (jobs) => {
      for (const job of jobs) await sendCampaign(job.data.campaignId);
    }),
  );

  // A failed attempt throws: the queue runs the job again later, with backoff.
  await queue.work<{ deliveryId: number }>(
    VOTE_REWARDS_QUEUE,
    every,
    metrics.countFailures(VOTE_REWARDS_QUEUE, async (jobs) => {
      for (const job of jobs) await app.ctx.voteRewards.attempt(job.data.deliveryId);
    }),
  );

  // Expired login sessions are forgotten hourly, so the refresh-token table stays the size of the live ones.
  const pruneSessions = () =>
    app.ctx.auth.pruneSessions().catch((err: unknown) => app.log.warn({ err }, 'pruning expired sessions failed'));
  const pruner = setInterval(() => void (options.running() && pruneSessions()), 3600_000);
  pruner.unref();
  app.addHook('preClose', async () => clearInterval(pruner));

  // Plans given back after a won dispute end with the period paid (docs/decisions/056-dispute-won.md).
  const endPlans = () => app.ctx.fulfilment.endLapsedPlans().catch((err: unknown) => app.log.warn({ err }, 'ending lapsed plans failed'));
  const planEnder = setInterval(() => void (options.running() && endPlans()), 3600_000);
  planEnder.unref();
  app.addHook('preClose', async () => clearInterval(planEnder));

  // Backups: answering `npm run backup` on the embedded database, and scheduled ones (BACKUP_EVERY_HOURS).
  await startBackups(app, options.running);

  if (options.pollerTickMs <= 0) return;
  let busy = false;
  let lastDownsample = 0;
  const tick = async () => {
    await gameStatus.pollDue();
    if (Date.now() - lastDownsample > 3600_000) {
      lastDownsample = Date.now();
      await gameStatus.downsample();
    }
  };
  const poller = setInterval(() => {
    if (busy || !options.running()) return;
    busy = true;
    tick()
      // A database outage is reported by the ready check and answered with 503s; it is not a bug.
      .catch((err: unknown) =>
        isDatabaseUnavailable(err)
          ? app.log.warn({ err }, 'game status poll skipped: database unavailable')
          : app.log.error({ err }, 'game status poll failed'),
      )
      .finally(() => (busy = false));
  }, options.pollerTickMs);
  poller.unref();
  app.addHook('preClose', async () => clearInterval(poller));
}
