import type { FastifyBaseLogger } from 'fastify';
import type { RewardPayload, UserRow } from '../../db/schema';
import type { RewardSettings, VotifierBody } from '../../../shared/schemas/vote-rewards';
import { MSG } from '../../../shared/messages';
import { badRequest, notFound } from '../../errors';
import { toApiId } from '../../lib/ids';
import { serverPolicy } from '../../policies/servers.policy';
import type { TargetPolicy } from '../../adapters/address-guard';
import type { VotifierTarget, VotifierVote } from '../../adapters/votifier';
import { parseVotifierKey } from '../../adapters/votifier';
import type { CountedVote } from '../daily-votes';
import type { VoteRewardsRepository } from './vote-rewards.repository';
import { assertVotifierTarget, assertWebhookTarget } from './reward-targets';
import { newWebhookSecret, SIGNATURE_HEADER, signWebhook } from './webhook-signature';

/** Attempts per delivery before it is marked failed (with backoff: about an hour and a half in all). */
export const MAX_ATTEMPTS = 8;
const LOG_SIZE = 20;

/** How deliveries leave the building: through the guarded outgoing-request path (the container wires it). */
export interface RewardSenders {
  /** POSTs JSON; answers the status code (a redirect or a private address is an error). */
  webhook: (url: string, body: string, headers: Record<string, string>) => Promise<number>;
  votifier: (target: VotifierTarget, vote: VotifierVote) => Promise<void>;
}

/** A counted daily vote, as rewards need it: who voted is told by name, never by id. */
export type RewardedVote = Omit<CountedVote, 'userId'>;

interface Deps {
  repository: VoteRewardsRepository;
  senders: RewardSenders;
  /** What the address guard lets a saved target be: the same policy the senders connect with. */
  outbound: TargetPolicy;
  /** Queues a delivery for the worker (durable, retried with backoff). */
  enqueue: (deliveryId: number) => Promise<void>;
  now: () => Date;
  serviceName: string;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

const hint = (secret: string) => `${secret.slice(0, 6)}…${secret.slice(-4)}`;

/**
 * Vote rewards (docs/decisions/031-vote-rewards.md): on each counted daily vote the owner's game
 * server hears of it, through a signed HTTPS webhook and/or Votifier, from the durable queue with
 * retries; the owner sees every delivery and can send a test.
 */
export function voteRewardsService({ repository, senders, outbound, enqueue, now, serviceName, log }: Deps) {
  const owned = async (actor: UserRow, serverId: number) => {
    const server = await repository.findServer(serverId);
    if (!server) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanManage(actor, server);
    return server;
  };

  /** Makes and queues one delivery per target set up in `targets` (the server's, read by the caller). */
  const deliver = async (
    serverId: number,
    targets: Awaited<ReturnType<VoteRewardsRepository['targets']>>,
    payload: RewardPayload,
    dailyVoteId: number | null,
    test: boolean,
  ): Promise<number[]> => {
    const kinds: Array<'webhook' | 'votifier'> = [];
    if (targets?.webhookUrl) kinds.push('webhook');
    // Votifier rewards a player by name: a vote without one has nothing to tell it.
    if (targets?.votifierHost && payload.playerName) kinds.push('votifier');
    const ids: number[] = [];
    for (const kind of kinds) {
      const { id } = await repository.insertDelivery({ serverId, dailyVoteId, kind, test, payload });
      ids.push(Number(id));
      await enqueue(Number(id));
    }
    return ids;
  };

  return {
    /**
     * Only the owner may go on. The routes that take a target ask this before the body is read,
     * so someone else learns nothing about the server or the rules from what a body gets wrong.
     */
    async assertOwner(actor: UserRow, serverId: number): Promise<void> {
      await owned(actor, serverId);
    },

    /** What is set up (secrets only as hints) and the latest deliveries. */
    async settings(actor: UserRow, serverId: number): Promise<RewardSettings> {
      await owned(actor, serverId);
      const [targets, deliveries] = await Promise.all([repository.targets(serverId), repository.latestDeliveries(serverId, LOG_SIZE)]);
      return {
        webhook: targets?.webhookUrl && targets.webhookSecret ? { url: targets.webhookUrl, secretHint: hint(targets.webhookSecret) } : null,
        votifier:
          targets?.votifierHost && targets.votifierPort && targets.votifierVersion
            ? {
                host: targets.votifierHost,
                port: targets.votifierPort,
                version: targets.votifierVersion,
                keyHint: hint(targets.votifierToken ?? targets.votifierPublicKey ?? ''),
              }
            : null,
        deliveries: deliveries.map((d) => ({
          id: toApiId(Number(d.id)),
          kind: d.kind,
          test: d.test,
          status: d.status,
          attempts: d.attempts,
          lastError: d.lastError,
          playerName: d.payload.playerName,
          createdAt: d.createdAt.toISOString(),
          finishedAt: d.finishedAt ? d.finishedAt.toISOString() : null,
        })),
      };
    },

    /**
     * Sets the webhook URL, once the guard has checked its host; a new (or rotated) signing secret
     * is answered this once.
     */
    async saveWebhook(
      actor: UserRow,
      serverId: number,
      body: { url: string; rotate: boolean },
    ): Promise<{ url: string; secret: string | null }> {
      await owned(actor, serverId);
      await assertWebhookTarget(body.url, outbound);
      const current = await repository.targets(serverId);
      const secret = !current?.webhookSecret || body.rotate ? newWebhookSecret() : null;
      await repository.saveTargets(serverId, { webhookUrl: body.url, ...(secret ? { webhookSecret: secret } : {}) }, now());
      return { url: body.url, secret };
    },

    async removeWebhook(actor: UserRow, serverId: number): Promise<void> {
      await owned(actor, serverId);
      await repository.saveTargets(serverId, { webhookUrl: null, webhookSecret: null }, now());
    },

    /**
     * Sets the Votifier listener, once the guard has checked its host; a v1 key that is not an RSA
     * public key is refused at once.
     */
    async saveVotifier(actor: UserRow, serverId: number, body: VotifierBody): Promise<void> {
      await owned(actor, serverId);
      if (body.version === 1) {
        try {
          parseVotifierKey(body.publicKey);
        } catch {
          throw badRequest('That is not a Votifier public key: paste the contents of plugins/Votifier/rsa/public.key');
        }
      }
      await assertVotifierTarget(body.host, body.port, outbound);
      await repository.saveTargets(
        serverId,
        {
          votifierHost: body.host,
          votifierPort: body.port,
          votifierVersion: body.version,
          votifierToken: body.version === 2 ? body.token : null,
          votifierPublicKey: body.version === 1 ? body.publicKey : null,
        },
        now(),
      );
    },

    async removeVotifier(actor: UserRow, serverId: number): Promise<void> {
      await owned(actor, serverId);
      await repository.saveTargets(
        serverId,
        { votifierHost: null, votifierPort: null, votifierVersion: null, votifierToken: null, votifierPublicKey: null },
        now(),
      );
    },

    /** Sends a test vote to every target set up (player "RPServersTest"). */
    async test(actor: UserRow, serverId: number): Promise<number[]> {
      const server = await owned(actor, serverId);
      const ids = await deliver(
        server.id,
        await repository.targets(server.id),
        {
          serverId: toApiId(server.id),
          serverName: server.name,
          voteId: null,
          username: actor.username,
          playerName: 'RPServersTest',
          address: '127.0.0.1',
          votedAt: now().toISOString(),
        },
        null,
        true,
      );
      if (ids.length === 0) throw badRequest('Set up a webhook or Votifier first.');
      return ids;
    },

    /** A counted daily vote: one delivery per target, queued (a failure to queue is logged, the vote stands). */
    async onVote(vote: RewardedVote): Promise<void> {
      // Most servers reward nothing: their votes read nothing more.
      if (vote.rewards === false) return;
      const targets = await repository.targets(vote.serverId);
      if (!targets?.webhookUrl && !(targets?.votifierHost && vote.playerName)) return;
      const server = await repository.findServer(vote.serverId);
      if (!server) return;
      await deliver(
        vote.serverId,
        targets,
        {
          serverId: toApiId(vote.serverId),
          serverName: server.name,
          voteId: toApiId(vote.voteId),
          username: vote.username,
          playerName: vote.playerName,
          address: vote.address,
          votedAt: vote.at.toISOString(),
        },
        vote.voteId,
        false,
      ).catch((err: unknown) => log?.warn({ err, serverId: vote.serverId }, 'queueing vote rewards failed'));
    },

    /**
     * The queue's worker: one attempt at a delivery. A failure is recorded and thrown so the queue
     * tries again later, until the last attempt, which marks the delivery failed.
     */
    async attempt(deliveryId: number): Promise<void> {
      const delivery = await repository.findDelivery(deliveryId);
      if (!delivery || delivery.status !== 'pending') return;
      const targets = await repository.targets(delivery.serverId);
      try {
        if (delivery.kind === 'webhook') {
          if (!targets?.webhookUrl || !targets.webhookSecret) throw new Error('the webhook was removed');
          const body = JSON.stringify({ type: 'vote', delivery: toApiId(Number(delivery.id)), test: delivery.test, ...delivery.payload });
          const status = await senders.webhook(targets.webhookUrl, body, {
            'content-type': 'application/json',
            'user-agent': `${serviceName.replace(/\s+/g, '')}-Webhooks/1`,
            [SIGNATURE_HEADER]: signWebhook(targets.webhookSecret, body, Math.floor(now().getTime() / 1000)),
          });
          if (status < 200 || status >= 300) throw new Error(`the webhook answered ${status}`);
        } else {
          if (!targets?.votifierHost || !targets.votifierPort || !targets.votifierVersion) throw new Error('Votifier was removed');
          const target: VotifierTarget =
            targets.votifierVersion === 2
              ? { version: 2, host: targets.votifierHost, port: targets.votifierPort, token: targets.votifierToken ?? '' }
              : { version: 1, host: targets.votifierHost, port: targets.votifierPort, publicKey: targets.votifierPublicKey ?? '' };
          await senders.votifier(target, {
            serviceName,
            username: delivery.payload.playerName ?? delivery.payload.username,
            address: delivery.payload.address,
            timestamp: new Date(delivery.payload.votedAt).getTime(),
          });
        }
        await repository.recordAttempt(delivery.id, { status: 'delivered', error: null }, now());
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
        const last = delivery.attempts + 1 >= MAX_ATTEMPTS;
        await repository.recordAttempt(delivery.id, { status: last ? 'failed' : 'pending', error: message }, now());
        if (!last) throw error;
      }
    },
  };
}

/** Vote rewards, as routes and the worker receive them. */
export type VoteRewardsService = ReturnType<typeof voteRewardsService>;
