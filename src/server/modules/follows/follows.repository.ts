import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../../shared/i18n/locales';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** Follows, announced events, and the inbox notices followers get. */
type NewEvent = { serverId: number; title: string; details: string; startsAt: Date };

const insertEvent = (event: NewEvent, tx: Executor) =>
  tx.insertInto('serverEvents').values(event).returning(['id', 'title', 'details', 'startsAt']).executeTakeFirstOrThrow();

export function followsRepository(db: Kysely<Database>) {
  return {
    findServer(serverId: number, tx: Executor = db) {
      return tx.selectFrom('servers').select(['id', 'name', 'ownerId', 'hidden']).where('id', '=', serverId).executeTakeFirst();
    },

    /** Follows (again: nothing changes). */
    async follow(userId: number, serverId: number, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('follows')
        .values({ userId, serverId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    async unfollow(userId: number, serverId: number, tx: Executor = db): Promise<void> {
      await tx.deleteFrom('follows').where('userId', '=', userId).where('serverId', '=', serverId).execute();
    },

    async followers(serverId: number, tx: Executor = db): Promise<number> {
      const row = await tx
        .selectFrom('follows')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('serverId', '=', serverId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async isFollowing(userId: number, serverId: number, tx: Executor = db): Promise<boolean> {
      return Boolean(
        await tx.selectFrom('follows').select('userId').where('userId', '=', userId).where('serverId', '=', serverId).executeTakeFirst(),
      );
    },

    /** The user's followed listed servers, newest follow first, with live status and the next event. */
    followed(userId: number, now: Date, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('follows')
        .innerJoin('servers', 'servers.id', 'follows.serverId')
        .select((eb) => [
          'servers.id',
          'servers.name',
          'servers.profilePicture',
          'servers.online',
          'servers.currentPlayers',
          'servers.maxPlayers',
          'follows.createdAt as followedAt',
          eb
            .selectFrom('serverEvents')
            .select(sql<string>`json_build_object('title', title, 'startsAt', starts_at)::text`.as('e'))
            .whereRef('serverEvents.serverId', '=', 'servers.id')
            .where('serverEvents.startsAt', '>', now)
            .orderBy('serverEvents.startsAt')
            .limit(1)
            .as('nextEvent'),
        ])
        .where('follows.userId', '=', userId)
        .where('servers.hidden', '=', false)
        .orderBy('follows.createdAt', 'desc')
        .limit(limit)
        .execute();
    },

    /**
     * Stores an event unless the server announced `max` since `since`. The server's row is locked
     * first, so announcements sent at once are counted one after the other and never pass the cap.
     * Over it: nothing stored, and when the window's oldest event was announced.
     */
    insertEventCapped(event: NewEvent, since: Date, max: number) {
      return db.transaction().execute(async (tx) => {
        await tx.selectFrom('servers').select('id').where('id', '=', event.serverId).forNoKeyUpdate().execute();
        const recent = await tx
          .selectFrom('serverEvents')
          .select('createdAt')
          .where('serverId', '=', event.serverId)
          .where('createdAt', '>', since)
          .orderBy('createdAt')
          .limit(max)
          .execute();
        if (recent.length >= max) return { stored: undefined, oldest: recent[0]!.createdAt };
        return { stored: await insertEvent(event, tx), oldest: undefined };
      });
    },

    upcomingEvents(serverId: number, now: Date, tx: Executor = db) {
      return tx
        .selectFrom('serverEvents')
        .select(['id', 'title', 'details', 'startsAt'])
        .where('serverId', '=', serverId)
        .where('startsAt', '>', now)
        .orderBy('startsAt')
        .limit(10)
        .execute();
    },

    /**
     * One inbox notice to every follower, in one statement whatever their number, each in their
     * language (English for those who chose none).
     */
    async noticeToFollowers(
      serverId: number,
      notices: Record<Locale, { title: string; message: string }>,
      link: string,
      tx: Executor = db,
    ): Promise<number> {
      const texts = sql.join(LOCALES.map((l) => sql`(${l}::text, ${notices[l].title}::text, ${notices[l].message}::text)`));
      const result = await sql`
        INSERT INTO notifications (user_id, title, message, link)
        SELECT f.user_id, t.title, t.message, ${link}
        FROM follows f
        JOIN users u ON u.id = f.user_id
        JOIN (VALUES ${texts}) AS t(locale, title, message) ON t.locale = COALESCE(u.locale, ${DEFAULT_LOCALE}::text)
        WHERE f.server_id = ${serverId}`.execute(tx);
      return Number(result.numAffectedRows ?? 0);
    },

    /** The push subscriptions of a server's followers, after `afterId`, in id order (a page of a fan-out). */
    followerPushTargets(serverId: number, afterId: number, limit: number) {
      return db
        .selectFrom('pushSubscriptions')
        .innerJoin('follows', 'follows.userId', 'pushSubscriptions.userId')
        .innerJoin('users', 'users.id', 'pushSubscriptions.userId')
        .select([
          'pushSubscriptions.id',
          'pushSubscriptions.endpoint',
          'pushSubscriptions.p256dh',
          'pushSubscriptions.auth',
          'users.locale',
        ])
        .where('follows.serverId', '=', serverId)
        .where('pushSubscriptions.id', '>', afterId)
        .orderBy('pushSubscriptions.id')
        .limit(limit)
        .execute();
    },

    /** A subscription its push service says is gone for good. */
    async deleteSubscription(id: number): Promise<void> {
      await db.deleteFrom('pushSubscriptions').where('id', '=', id).execute();
    },
  };
}

/** Follows' data, as the service receives it. */
export type FollowsRepository = ReturnType<typeof followsRepository>;
