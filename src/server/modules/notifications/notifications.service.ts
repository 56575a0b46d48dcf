import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Notification, PushSubscriptionJson } from '../../../shared/schemas/notifications';
import { PUSH_LIMITS } from '../../../shared/limits';
import { MSG } from '../../../shared/messages';
import { normalizePlan } from '../../../shared/roles';
import { badRequest, forbidden, notFound, tooMany } from '../../errors';
import { parseId, toApiId } from '../../lib/ids';
import { pageTotal } from '../../lib/paging';
import { isAllowedEndpoint } from '../../adapters/web-push';

interface Deps {
  db: Kysely<Database>;
  now: () => Date;
  pushHosts: readonly string[];
  /** Hands a promotion to the durable queue once its rows are committed. */
  enqueueFanout: (promotionId: number) => Promise<void>;
}

const DAY_MS = 24 * 3600_000;
/** Browsers one user may keep subscribed; a new one past this replaces the least recently registered. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;

/** Parses the push form's player count (spec §5): empty → undefined; otherwise a whole number ≥ 0. */
export function parsePlayerCount(value: unknown): number | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw badRequest(MSG.playerCountInvalid);
  return n;
}

/** Inbox, push subscriptions and push promotions (issue 5). */
export function notificationsService({ db, now, pushHosts, enqueueFanout }: Deps) {
  const sentInLastDay = async (trx: Kysely<Database>, ownerId: number) =>
    (
      await trx
        .selectFrom('pushPromotions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ownerId', '=', ownerId)
        .where('createdAt', '>', new Date(now().getTime() - DAY_MS))
        .executeTakeFirstOrThrow()
    ).n;

  return {
    async list(user: UserRow | undefined, limit: number, offset: number): Promise<{ rows: Notification[]; total: number }> {
      if (!user) return { rows: [], total: 0 };
      const rows = await db
        .selectFrom('notifications')
        .select(['id', 'title', 'message', 'link', 'readAt', 'createdAt'])
        .select((eb) => eb.fn.countAll<number>().over().as('total'))
        .where('userId', '=', user.id)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
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
        total: await pageTotal(rows, offset, async () =>
          Number(
            (
              await db
                .selectFrom('notifications')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('userId', '=', user.id)
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      };
    },

    async markRead(user: UserRow, rawId: string | 'all'): Promise<void> {
      const query = db.updateTable('notifications').set({ readAt: now() }).where('userId', '=', user.id).where('readAt', 'is', null);
      if (rawId === 'all') {
        await query.execute();
        return;
      }
      const id = parseId(rawId);
      if (!id) throw notFound();
      const updated = await query.where('id', '=', id).executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) return;
      // Nothing changed: fine for the caller's own notification read before, 404 for anyone else's.
      const own = await db.selectFrom('notifications').select('id').where('id', '=', id).where('userId', '=', user.id).executeTakeFirst();
      if (!own) throw notFound();
    },

    /** Admins write to one user or to every user of a role, in one statement. */
    async create(body: {
      targetUserId?: string;
      userType?: 'player' | 'server_owner' | 'admin';
      title: string;
      message: string;
      link?: string;
    }): Promise<number> {
      const link = body.link ? body.link : null;
      if (body.targetUserId) {
        const user = await db.selectFrom('users').select('id').where('id', '=', Number(body.targetUserId)).executeTakeFirst();
        if (!user) throw notFound('User not found');
        await db.insertInto('notifications').values({ userId: user.id, title: body.title, message: body.message, link }).execute();
        return 1;
      }
      const result = await db
        .insertInto('notifications')
        .columns(['userId', 'title', 'message', 'link'])
        .expression((eb) =>
          eb
            .selectFrom('users')
            .select(['users.id', eb.val(body.title).as('title'), eb.val(body.message).as('message'), eb.val(link).as('link')])
            .where('users.role', '=', body.userType!),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0);
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
      await db.transaction().execute(async (trx) => {
        await sql`SELECT id FROM users WHERE id = ${user.id} FOR UPDATE`.execute(trx);
        await trx
          .insertInto('pushSubscriptions')
          .values({ ...values, endpoint: subscription.endpoint })
          .onConflict((oc) => oc.column('endpoint').doUpdateSet(values))
          .execute();
        await trx
          .deleteFrom('pushSubscriptions')
          .where('userId', '=', user.id)
          .where('id', 'not in', (eb) =>
            eb
              .selectFrom('pushSubscriptions')
              .select('id')
              .where('userId', '=', user.id)
              .orderBy('updatedAt', 'desc')
              .orderBy('id', 'desc')
              .limit(PUSH_SUBSCRIPTIONS_PER_USER),
          )
          .execute();
      });
    },

    async pushCount(user: UserRow): Promise<{ count: number; limit: number }> {
      return { count: await sentInLastDay(db, user.id), limit: PUSH_LIMITS[normalizePlan(user.subscriptionPlan)] };
    },

    /**
     * A push promotion: the owner's row is locked while the last 24 hours are counted, so parallel
     * sends cannot pass the plan's limit. Recipients are fixed in the same transaction: a delivery
     * per player push subscription, an inbox notification per player who joined the server.
     */
    async sendMass(
      actor: UserRow,
      input: { serverId: string; playerCount?: unknown; isEvent: boolean; eventName?: string | undefined; eventTime?: string | undefined },
    ) {
      const requested = parsePlayerCount(input.playerCount);
      const serverId = parseId(input.serverId);
      const server = serverId
        ? await db
            .selectFrom('servers')
            .select(['id', 'name', 'ownerId', 'currentPlayers', 'hidden'])
            .where('id', '=', serverId)
            .executeTakeFirst()
        : undefined;
      if (!server || server.hidden) throw notFound(MSG.serverNotFound);
      if (server.ownerId !== actor.id) throw forbidden(MSG.notYourServer);
      const limit = PUSH_LIMITS[normalizePlan(actor.subscriptionPlan)];
      if (limit === 0) throw forbidden(MSG.pushNeedsPlan);
      const playerCount = requested ?? server.currentPlayers ?? 0;
      const title = input.isEvent && input.eventName ? `${server.name}: ${input.eventName}` : `${server.name} wants you online`;
      const message = input.isEvent
        ? `${input.eventName || 'An event'}${input.eventTime ? ` at ${input.eventTime}` : ''}. ${playerCount} players are on now.`
        : `${playerCount} players are on now. Join them!`;
      const link = `/servers/${server.id}`;

      const promotion = await db.transaction().execute(async (trx) => {
        await sql`SELECT id FROM users WHERE id = ${actor.id} FOR UPDATE`.execute(trx);
        const used = await sentInLastDay(trx, actor.id);
        if (used >= limit) throw tooMany(3600, MSG.pushLimitReached);
        const row = await trx
          .insertInto('pushPromotions')
          .values({
            ownerId: actor.id,
            serverId: server.id,
            playerCount,
            isEvent: input.isEvent,
            eventName: input.eventName || null,
            eventTime: input.eventTime || null,
            createdAt: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const deliveries = await trx
          .insertInto('pushDeliveries')
          .columns(['promotionId', 'subscriptionId'])
          .expression((eb) =>
            eb
              .selectFrom('pushSubscriptions')
              .innerJoin('users', 'users.id', 'pushSubscriptions.userId')
              .select([eb.val(row.id).as('promotionId'), 'pushSubscriptions.id'])
              .where('users.role', '=', 'player'),
          )
          .executeTakeFirst();
        await trx
          .insertInto('notifications')
          .columns(['userId', 'title', 'message', 'link', 'promotionId'])
          .expression((eb) =>
            eb
              .selectFrom('joins')
              .innerJoin('users', 'users.id', 'joins.userId')
              .select([
                'joins.userId',
                eb.val(title).as('title'),
                eb.val(message).as('message'),
                eb.val(link).as('link'),
                eb.val(row.id).as('promotionId'),
              ])
              .where('joins.serverId', '=', server.id)
              .where('users.role', '=', 'player'),
          )
          .execute();
        const recipients = Number(deliveries.numInsertedOrUpdatedRows ?? 0);
        await trx.updateTable('pushPromotions').set({ recipients }).where('id', '=', row.id).execute();
        return { id: row.id, recipients };
      });
      await enqueueFanout(promotion.id);
      return {
        id: toApiId(promotion.id),
        recipients: promotion.recipients,
        playerCount,
        remaining: limit - (await sentInLastDay(db, actor.id)),
      };
    },
  };
}

export type NotificationsService = ReturnType<typeof notificationsService>;
