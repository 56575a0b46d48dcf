import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/schema';
import type { PushSender } from '../../adapters/web-push';

export const FANOUT_QUEUE = 'push-fanout';
const BATCH = 25;
const MAX_ATTEMPTS = 3;

interface Deps {
  db: Kysely<Database>;
  push: PushSender;
  log: FastifyBaseLogger;
  /** Checked between deliveries: false once the app is stopping, so the job is left for a retry. */
  running: () => boolean;
}

/**
 * Sends one promotion's pending deliveries. Each delivery is marked sent right after its push
 * succeeds; a worker that stops mid-way leaves the rest pending, and the queue's retry of the
 * job continues from there: every recipient once.
 */
export function fanoutWorker({ db, push, log, running }: Deps) {
  return async (promotionId: number): Promise<void> => {
    const promotion = await db
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
    if (!promotion) return;
    await db.updateTable('pushPromotions').set({ status: 'sending' }).where('id', '=', promotionId).execute();
    const payload = {
      title:
        promotion.isEvent && promotion.eventName
          ? `${promotion.name}: ${promotion.eventName}`.slice(0, 120)
          : `${promotion.name}`.slice(0, 120),
      body:
        (promotion.isEvent ? `${promotion.eventName ?? 'Event'}${promotion.eventTime ? ` at ${promotion.eventTime}` : ''}. ` : '') +
        `${promotion.playerCount} players online now.`,
      url: `/servers/${promotion.serverId}`,
      tag: `promotion-${promotion.id}`,
    };
    let failures = 0;
    for (;;) {
      if (!running()) throw new Error('stopping: the rest of this fan-out is left for the retry');
      const batch = await db
        .selectFrom('pushDeliveries')
        .innerJoin('pushSubscriptions', 'pushSubscriptions.id', 'pushDeliveries.subscriptionId')
        .select([
          'pushDeliveries.subscriptionId',
          'pushDeliveries.attempts',
          'pushSubscriptions.endpoint',
          'pushSubscriptions.p256dh',
          'pushSubscriptions.auth',
        ])
        .where('pushDeliveries.promotionId', '=', promotionId)
        .where('pushDeliveries.status', '=', 'pending')
        .where('pushDeliveries.attempts', '<', MAX_ATTEMPTS)
        .orderBy('pushDeliveries.subscriptionId')
        .limit(BATCH)
        .execute();
      if (batch.length === 0) break;
      for (const delivery of batch) {
        if (!running()) throw new Error('stopping: the rest of this fan-out is left for the retry');
        const outcome = await push.send(delivery, payload, 12 * 3600);
        const key = (q: ReturnType<typeof db.updateTable<'pushDeliveries'>>) =>
          q.where('promotionId', '=', promotionId).where('subscriptionId', '=', delivery.subscriptionId);
        if (outcome === 'sent') {
          await key(
            db.updateTable('pushDeliveries').set({ status: 'sent', sentAt: new Date(), attempts: delivery.attempts + 1 }),
          ).execute();
          await db
            .updateTable('pushPromotions')
            .set((eb) => ({ delivered: eb('delivered', '+', 1) }))
            .where('id', '=', promotionId)
            .execute();
        } else if (outcome === 'gone') {
          // 404/410: the browser dropped it; its deliveries go with it.
          await db.deleteFrom('pushSubscriptions').where('id', '=', delivery.subscriptionId).execute();
        } else {
          failures++;
          const attempts = delivery.attempts + 1;
          await key(db.updateTable('pushDeliveries').set({ attempts, status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending' })).execute();
        }
      }
    }
    await db.updateTable('pushPromotions').set({ status: 'done' }).where('id', '=', promotionId).execute();
    if (failures > 0) log.warn({ promotionId, failures }, 'some push deliveries failed');
  };
}
