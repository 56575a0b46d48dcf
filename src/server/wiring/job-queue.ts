import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/database';
import { isDatabaseUnavailable } from '../db/unavailable';
import { createQueue, type Queue, type QueueOptions } from '../adapters/queue';
import { FANOUT_QUEUE } from '../modules/notifications';
import { MASS_EMAIL_QUEUE } from '../modules/email';
import { VOTE_REWARDS_QUEUE } from '../modules/vote-rewards';

/**
 * The job queue, started with every queue the app sends to, and stopped (waiting up to 5 s for
 * running jobs) when the app closes. Its workers start later, in `background.ts`.
 */
export async function startJobQueue(app: FastifyInstance, handle: DatabaseHandle, options: QueueOptions): Promise<Queue> {
  const queue = createQueue(handle, options);
  // A database outage is waited out (warn); anything else is a bug (error).
  queue.on('error', (err) => (isDatabaseUnavailable(err) ? app.log.warn : app.log.error).call(app.log, { err }, 'job queue error'));
  await queue.start();
  await queue.createQueue(FANOUT_QUEUE);
  await queue.createQueue(MASS_EMAIL_QUEUE);
  await queue.createQueue(VOTE_REWARDS_QUEUE);
  app.addHook('onClose', async () => {
    await queue.stop({ graceful: true, wait: true, timeout: 5000, close: true });
  });
  return queue;
}
