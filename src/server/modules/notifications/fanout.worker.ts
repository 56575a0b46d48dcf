import { serverT } from '../../i18n/translate';
import type { FastifyBaseLogger } from 'fastify';
import type { PushSender } from '../../adapters/web-push';
import type { PromotionsRepository } from './promotions.repository';

export const FANOUT_QUEUE = 'push-fanout';
const BATCH = 25;
const MAX_ATTEMPTS = 3;

interface Deps {
  promotions: PromotionsRepository;
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
export function fanoutWorker({ promotions, push, log, running }: Deps) {
  return async (promotionId: number): Promise<void> => {
    const promotion = await promotions.findForFanout(promotionId);
    if (!promotion) return;
    await promotions.setStatus(promotionId, 'sending');
    // The site's words in each recipient's language; the server's name and event are the owner's.
    const payloads = new Map<string, { title: string; body: string; url: string; tag: string }>();
    const payloadFor = (locale: string | null) => {
      const key = locale ?? '';
      let made = payloads.get(key);
      if (!made) {
        const t = serverT(locale);
        const event = promotion.eventName ?? t('push.promotion.eventUnnamed');
        made = {
          title:
            promotion.isEvent && promotion.eventName
              ? `${promotion.name}: ${promotion.eventName}`.slice(0, 120)
              : `${promotion.name}`.slice(0, 120),
          body:
            (promotion.isEvent
              ? promotion.eventTime
                ? t('push.promotion.event', { event, time: promotion.eventTime })
                : t('push.promotion.eventNoTime', { event })
              : '') + t('push.promotion.players', { players: promotion.playerCount }),
          url: `/servers/${promotion.serverId}`,
          tag: `promotion-${promotion.id}`,
        };
        payloads.set(key, made);
      }
      return made;
    };
    let failures = 0;
    for (;;) {
      if (!running()) throw new Error('stopping: the rest of this fan-out is left for the retry');
      const batch = await promotions.pendingDeliveries(promotionId, MAX_ATTEMPTS, BATCH);
      if (batch.length === 0) break;
      for (const delivery of batch) {
        if (!running()) throw new Error('stopping: the rest of this fan-out is left for the retry');
        const outcome = await push.send(delivery, payloadFor(delivery.locale), 12 * 3600);
        if (outcome === 'sent') {
          await promotions.markSent(promotionId, delivery.subscriptionId, delivery.attempts + 1);
        } else if (outcome === 'gone') {
          // 404/410: the browser dropped it; its deliveries go with it.
          await promotions.deleteSubscription(delivery.subscriptionId);
        } else {
          failures++;
          const attempts = delivery.attempts + 1;
          await promotions.markAttempt(promotionId, delivery.subscriptionId, attempts, attempts >= MAX_ATTEMPTS ? 'failed' : 'pending');
        }
      }
    }
    await promotions.setStatus(promotionId, 'done');
    if (failures > 0) log.warn({ promotionId, failures }, 'some push deliveries failed');
  };
}
