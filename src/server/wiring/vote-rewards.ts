import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { BuildOptions } from '../app';
import type { Database } from '../db/schema';
import type { Queue, QueueOptions } from '../adapters/queue';
import { guardedFetch } from '../adapters/guarded-http';
import { sendVotifierVote } from '../adapters/votifier';
import { SITE } from '../modules/seo';
import { MAX_ATTEMPTS, VOTE_REWARDS_QUEUE, voteRewardsRepository, voteRewardsService } from '../modules/vote-rewards';

/**
 * Vote rewards delivered to owners' webhooks and Votifier listeners through the guarded client
 * (10 s, 64 KB answers, private addresses refused unless the policy allows them), each delivery
 * a queued job retried with back-off.
 */
export function voteRewardsFor(
  app: FastifyInstance,
  db: Kysely<Database>,
  queue: Queue,
  queueOptions: QueueOptions,
  options: Pick<BuildOptions, 'voteRewards'>,
  now: () => Date,
) {
  const policy = options.voteRewards?.policy ?? {};
  return voteRewardsService({
    repository: voteRewardsRepository(db),
    senders: {
      webhook: async (url, body, headers) =>
        (
          await guardedFetch(url, {
            method: 'POST',
            headers,
            body,
            timeoutMs: 10_000,
            maxBytes: 64 * 1024,
            policy,
            ...(options.voteRewards?.ca ? { tls: { ca: options.voteRewards.ca } } : {}),
          })
        ).status,
      votifier: (target, vote) => sendVotifierVote(target, vote, { policy, timeoutMs: 10_000 }),
    },
    // Targets are checked when saved with the policy deliveries connect with, so what saves can be reached.
    outbound: policy,
    enqueue: async (deliveryId) => {
      await queue.send(
        VOTE_REWARDS_QUEUE,
        { deliveryId },
        { retryLimit: MAX_ATTEMPTS - 1, retryDelay: queueOptions.retryDelaySeconds, retryBackoff: true, expireInSeconds: 60 },
      );
    },
    now,
    serviceName: SITE,
    log: app.log,
  });
}
