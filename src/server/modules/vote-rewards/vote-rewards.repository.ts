import type { Kysely } from 'kysely';
import type { Database, RewardPayload } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** Reward targets and the deliveries made to them. */
export function voteRewardsRepository(db: Kysely<Database>) {
  return {
    /** The server (for the owner check) and its targets, if any. */
    findServer(serverId: number, tx: Executor = db) {
      return tx.selectFrom('servers').select(['id', 'name', 'ownerId', 'hidden']).where('id', '=', serverId).executeTakeFirst();
    },

    targets(serverId: number, tx: Executor = db) {
      return tx.selectFrom('rewardTargets').selectAll().where('serverId', '=', serverId).executeTakeFirst();
    },

    /** Saves part of a server's targets (creating the row when missing). */
    async saveTargets(
      serverId: number,
      values: Partial<{
        webhookUrl: string | null;
        webhookSecret: string | null;
        votifierHost: string | null;
        votifierPort: number | null;
        votifierVersion: 1 | 2 | null;
        votifierToken: string | null;
        votifierPublicKey: string | null;
      }>,
      at: Date,
      tx: Executor = db,
    ): Promise<void> {
      await tx
        .insertInto('rewardTargets')
        .values({ serverId, ...values, updatedAt: at })
        .onConflict((oc) => oc.column('serverId').doUpdateSet({ ...values, updatedAt: at }))
        .execute();
    },

    insertDelivery(
      delivery: { serverId: number; dailyVoteId: number | null; kind: 'webhook' | 'votifier'; test: boolean; payload: RewardPayload },
      tx: Executor = db,
    ) {
      return tx
        .insertInto('rewardDeliveries')
        .values({ ...delivery, payload: JSON.stringify(delivery.payload) })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    findDelivery(id: number, tx: Executor = db) {
      return tx.selectFrom('rewardDeliveries').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Records one attempt: delivered, failed for good, or still pending with its error. */
    async recordAttempt(
      id: number,
      outcome: { status: 'pending' | 'delivered' | 'failed'; error: string | null },
      at: Date,
      tx: Executor = db,
    ): Promise<void> {
      await tx
        .updateTable('rewardDeliveries')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          status: outcome.status,
          lastError: outcome.error,
          finishedAt: outcome.status === 'pending' ? null : at,
        }))
        .where('id', '=', id)
        .execute();
    },

    /** The latest deliveries of a server. */
    latestDeliveries(serverId: number, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('rewardDeliveries')
        .selectAll()
        .where('serverId', '=', serverId)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
  };
}

/** Vote rewards' data, as the service receives it. */
export type VoteRewardsRepository = ReturnType<typeof voteRewardsRepository>;
