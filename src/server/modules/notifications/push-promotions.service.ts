import type { UserRow } from '../../db/schema';
import type { InTransaction, Tx } from '../../db/transaction';
import { MSG } from '../../../shared/messages';
import { badRequest } from '../../errors';
import { parseId, toApiId } from '../../lib/ids';
import { notificationsPolicy } from '../../policies/notifications.policy';
import type { NotificationsRepository } from './notifications.repository';
import type { PromotionsRepository } from './promotions.repository';

interface Deps {
  notifications: NotificationsRepository;
  promotions: PromotionsRepository;
  inTransaction: InTransaction;
  now: () => Date;
  /** Hands a promotion to the durable queue once its rows are committed. */
  enqueueFanout: (promotionId: number) => Promise<void>;
}

const DAY_MS = 24 * 3600_000;

/** Parses the push form's player count: empty → undefined; otherwise a whole number ≥ 0. */
export function parsePlayerCount(value: unknown): number | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw badRequest(MSG.playerCountInvalid);
  return n;
}

/** What an owner sends to promote a server. */
export interface PromotionInput {
  serverId: string;
  playerCount?: unknown;
  isEvent: boolean;
  eventName?: string | undefined;
  eventTime?: string | undefined;
}

/** Push promotions: an owner calls the players of a server online, a few times a day by plan. */
export function pushPromotionsService({ notifications, promotions, inTransaction, now, enqueueFanout }: Deps) {
  const sentInLastDay = (ownerId: number, tx?: Tx) => promotions.countSentSince(ownerId, new Date(now().getTime() - DAY_MS), tx);

  return {
    /** Promotions the caller sent in the last 24 hours, and how many the plan allows. */
    async pushCount(user: UserRow): Promise<{ count: number; limit: number }> {
      return { count: await sentInLastDay(user.id), limit: notificationsPolicy.dailyPushLimit(user) };
    },

    /**
     * A push promotion: the owner's row is locked while the last 24 hours are counted, so parallel
     * sends cannot pass the plan's limit. Recipients are fixed in the same transaction: a delivery
     * per player push subscription, an inbox notification per player who joined the server.
     */
    async sendMass(actor: UserRow, input: PromotionInput) {
      notificationsPolicy.assertMaySendPromotions(actor);
      const requested = parsePlayerCount(input.playerCount);
      const serverId = parseId(input.serverId);
      const server = notificationsPolicy.assertMayPromote(actor, serverId ? await promotions.findServer(serverId) : undefined);
      const limit = notificationsPolicy.dailyPushLimit(actor);
      const playerCount = requested ?? server.currentPlayers ?? 0;
      const title = input.isEvent && input.eventName ? `${server.name}: ${input.eventName}` : `${server.name} wants you online`;
      const message = input.isEvent
        ? `${input.eventName || 'An event'}${input.eventTime ? ` at ${input.eventTime}` : ''}. ${playerCount} players are on now.`
        : `${playerCount} players are on now. Join them!`;
      const link = `/servers/${server.id}`;

      const promotion = await inTransaction(async (tx) => {
        await notifications.lockUser(actor.id, tx);
        notificationsPolicy.assertWithinDailyQuota(await sentInLastDay(actor.id, tx), limit);
        const id = await promotions.insert(
          {
            ownerId: actor.id,
            serverId: server.id,
            playerCount,
            isEvent: input.isEvent,
            eventName: input.eventName || null,
            eventTime: input.eventTime || null,
            createdAt: now(),
          },
          tx,
        );
        const recipients = await promotions.addPlayerDeliveries(id, tx);
        await promotions.notifyJoinedPlayers(id, server.id, { title, message, link }, tx);
        await promotions.setRecipients(id, recipients, tx);
        return { id, recipients };
      });
      await enqueueFanout(promotion.id);
      return {
        id: toApiId(promotion.id),
        recipients: promotion.recipients,
        playerCount,
        remaining: limit - (await sentInLastDay(actor.id)),
      };
    },
  };
}
