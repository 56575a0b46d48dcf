import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Notification, PushSubscriptionJson } from '../../../shared/schemas/notifications';
import type { Role } from '../../../shared/roles';
import { MSG } from '../../../shared/messages';
import { badRequest, notFound } from '../../errors';
import { toApiId } from '../../lib/ids';
import { pageTotal } from '../../lib/paging';
import { isAllowedEndpoint, type PushSender } from '../../adapters/web-push';
import { notificationsPolicy } from '../../policies/notifications.policy';
import type { NotificationsRepository } from './notifications.repository';
import type { PromotionsRepository } from './promotions.repository';
import { pushPromotionsService } from './push-promotions.service';
import { fanoutWorker } from './fanout.worker';

interface Deps {
  notifications: NotificationsRepository;
  promotions: PromotionsRepository;
  inTransaction: InTransaction;
  push: PushSender;
  now: () => Date;
  pushHosts: readonly string[];
  /** Hands a promotion to the durable queue once its rows are committed. */
  enqueueFanout: (promotionId: number) => Promise<void>;
}

/** Browsers one user may keep subscribed; a new one past this replaces the least recently registered. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;

/** Inbox, push subscriptions and push promotions. */
export function notificationsService(deps: Deps) {
  const { notifications, promotions, inTransaction, push, now, pushHosts } = deps;

  return {
    ...pushPromotionsService(deps),

    /** A page of the caller's inbox, newest first; an anonymous caller's is empty. */
    async list(user: UserRow | undefined, limit: number, offset: number): Promise<{ rows: Notification[]; total: number }> {
      if (!user) return { rows: [], total: 0 };
      const rows = await notifications.listForUser(user.id, limit, offset);
      return {
        rows: rows.map((n) => ({
          id: toApiId(n.id),
          _id: toApiId(n.id),
          title: n.title,
          message: n.message,
          link: n.link,
          read: n.readAt !== null,
          createdAt: n.createdAt.toISOString(),
        })),
        total: await pageTotal(rows, offset, () => notifications.countForUser(user.id)),
      };
    },

    /** Marks one of the caller's notifications read, or all of them. */
    async markRead(user: UserRow, id: number | 'all'): Promise<void> {
      if (id === 'all') {
        await notifications.markAllRead(user.id, now());
        return;
      }
      if ((await notifications.markOneRead(user.id, id, now())) > 0) return;
      // Nothing changed: fine for the caller's own notification read before, 404 for anyone else's.
      if (!(await notifications.isUsers(user.id, id))) throw notFound();
    },

    /** Admins write to one user or to every user of a role, in one statement. */
    async create(
      actor: UserRow,
      body: { targetUserId?: string; userType?: Role; title: string; message: string; link?: string },
    ): Promise<number> {
      notificationsPolicy.assertMayWrite(actor);
      const text = { title: body.title, message: body.message, link: body.link ? body.link : null };
      if (body.targetUserId) {
        const userId = await notifications.findUserId(Number(body.targetUserId));
        if (!userId) throw notFound(MSG.userNotFound);
        await notifications.insert(userId, text);
        return 1;
      }
      // The body schema requires exactly one of targetUserId and userType.
      return notifications.insertForRole(body.userType!, text);
    },

    /**
     * One subscription per browser: the same endpoint again replaces keys and owner, never
     * duplicates. A user keeps at most 10, the most recently registered; the user's row is
     * locked while the oldest go, so parallel registrations cannot pass the cap.
     */
    async saveSubscription(user: UserRow, subscription: PushSubscriptionJson, userAgent: string | undefined): Promise<void> {
      if (!isAllowedEndpoint(subscription.endpoint, pushHosts)) throw badRequest(MSG.pushEndpointRefused);
      const values = {
        userId: user.id,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        userAgent: userAgent?.slice(0, 300) ?? null,
        updatedAt: now(),
      };
      await inTransaction(async (tx) => {
        await notifications.lockUser(user.id, tx);
        await notifications.upsertSubscription(subscription.endpoint, values, tx);
        await notifications.pruneSubscriptions(user.id, PUSH_SUBSCRIPTIONS_PER_USER, tx);
      });
    },

    /** The VAPID public key browsers subscribe with. */
    publicKey(): string {
      return push.publicKey;
    },

    /** The queue's worker for one promotion; `running()` false leaves the rest for the retry. */
    worker({ log, running }: { log: FastifyBaseLogger; running: () => boolean }) {
      return fanoutWorker({ promotions, push, log, running });
    },
  };
}

export type NotificationsService = ReturnType<typeof notificationsService>;
