import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import type { NotificationText } from './notifications.repository';

/** A new push promotion as the owner sent it. */
export interface PromotionValues {
  ownerId: number;
  serverId: number;
  playerCount: number;
  isEvent: boolean;
  eventName: string | null;
  eventTime: string | null;
  createdAt: Date;
}

/** Push promotions, their deliveries, and the servers they promote. */
export function promotionsRepository(db: Kysely<Database>) {
  /** The one delivery of a promotion to a subscription. */
  const delivery = (tx: Executor, promotionId: number, subscriptionId: number) =>
    tx.updateTable('pushDeliveries').where('promotionId', '=', promotionId).where('subscriptionId', '=', subscriptionId);

  return {
    /** Promotions the owner sent after `since`. */
    async countSentSince(ownerId: number, since: Date, tx: Executor = db): Promise<number> {
      return (
        await tx
          .selectFrom('pushPromotions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('ownerId', '=', ownerId)
          .where('createdAt', '>', since)
          .executeTakeFirstOrThrow()
      ).n;
    },

    /** What a promotion needs to know about the server it promotes. */
    async findServer(serverId: number, tx: Executor = db) {
      return tx
        .selectFrom('servers')
        .select(['id', 'name', 'ownerId', 'currentPlayers', 'hidden'])
        .where('id', '=', serverId)
        .executeTakeFirst();
    },

    /** Stores a promotion; returns its id. */
    async insert(values: PromotionValues, tx: Executor = db): Promise<number> {
      return (await tx.insertInto('pushPromotions').values(values).returning('id').executeTakeFirstOrThrow()).id;
    },

    /** A pending delivery of the promotion to every player's push subscription; returns how many. */
    async addPlayerDeliveries(promotionId: number, tx: Executor = db): Promise<number> {
      const deliveries = await tx
        .insertInto('pushDeliveries')
        .columns(['promotionId', 'subscriptionId'])
        .expression((eb) =>
          eb
            .selectFrom('pushSubscriptions')
            .innerJoin('users', 'users.id', 'pushSubscriptions.userId')
            .select([eb.val(promotionId).as('promotionId'), 'pushSubscriptions.id'])
            .where('users.role', '=', 'player'),
        )
        .executeTakeFirst();
      return Number(deliveries.numInsertedOrUpdatedRows ?? 0);
    },

    /** An inbox notification of the promotion to every player who joined the server. */
    async notifyJoinedPlayers(promotionId: number, serverId: number, text: NotificationText, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('notifications')
        .columns(['userId', 'title', 'message', 'link', 'promotionId'])
        .expression((eb) =>
          eb
            .selectFrom('joins')
            .innerJoin('users', 'users.id', 'joins.userId')
            .select([
              'joins.userId',
              eb.val(text.title).as('title'),
              eb.val(text.message).as('message'),
              eb.val(text.link).as('link'),
              eb.val(promotionId).as('promotionId'),
            ])
            .where('joins.serverId', '=', serverId)
            .where('users.role', '=', 'player'),
        )
        .execute();
    },

    async setRecipients(promotionId: number, recipients: number, tx: Executor = db): Promise<void> {
      await tx.updateTable('pushPromotions').set({ recipients }).where('id', '=', promotionId).execute();
    },

    /** A promotion with its server's id and name, for the push it sends. */
    async findForFanout(promotionId: number, tx: Executor = db) {
      return tx
        .selectFrom('pushPromotions')
        .innerJoin('servers', 'servers.id', 'pushPromotions.serverId')
        .select([
          'pushPromotions.id',
          'pushPromotions.playerCount',
          'pushPromotions.isEvent',
          'pushPromotions.eventName',
          'pushPromotions.eventTime',
          'servers.id as serverId',
          'servers.name',
        ])
        .where('pushPromotions.id', '=', promotionId)
        .executeTakeFirst();
    },

    async setStatus(promotionId: number, status: 'sending' | 'done', tx: Executor = db): Promise<void> {
      await tx.updateTable('pushPromotions').set({ status }).where('id', '=', promotionId).execute();
    },

    /** The next pending deliveries with fewer than `maxAttempts` tries, in subscription order. */
    async pendingDeliveries(promotionId: number, maxAttempts: number, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('pushDeliveries')
        .innerJoin('pushSubscriptions', 'pushSubscriptions.id', 'pushDeliveries.subscriptionId')
        .leftJoin('users', 'users.id', 'pushSubscriptions.userId')
        .select([
          'pushDeliveries.subscriptionId',
          'pushDeliveries.attempts',
          'pushSubscriptions.endpoint',
          'pushSubscriptions.p256dh',
          'pushSubscriptions.auth',
          'users.locale',
        ])
        .where('pushDeliveries.promotionId', '=', promotionId)
        .where('pushDeliveries.status', '=', 'pending')
        .where('pushDeliveries.attempts', '<', maxAttempts)
        .orderBy('pushDeliveries.subscriptionId')
        .limit(limit)
        .execute();
    },

    /** Marks a delivery sent, then counts it on the promotion. */
    async markSent(promotionId: number, subscriptionId: number, attempts: number, tx: Executor = db): Promise<void> {
      await delivery(tx, promotionId, subscriptionId).set({ status: 'sent', sentAt: new Date(), attempts }).execute();
      await tx
        .updateTable('pushPromotions')
        .set((eb) => ({ delivered: eb('delivered', '+', 1) }))
        .where('id', '=', promotionId)
        .execute();
    },

    /** Records a failed try: pending again, or failed for good. */
    async markAttempt(
      promotionId: number,
      subscriptionId: number,
      attempts: number,
      status: 'pending' | 'failed',
      tx: Executor = db,
    ): Promise<void> {
      await delivery(tx, promotionId, subscriptionId).set({ attempts, status }).execute();
    },

    /** Forgets a subscription the browser dropped; its deliveries go with it. */
    async deleteSubscription(subscriptionId: number, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('pushSubscriptions').where('id', '=', subscriptionId).execute();
    },
  };
}

export type PromotionsRepository = ReturnType<typeof promotionsRepository>;
