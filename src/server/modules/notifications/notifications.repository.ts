import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import type { Role } from '../../../shared/roles';

/** A notification's text, as an admin or a push promotion writes it. */
export interface NotificationText {
  title: string;
  message: string;
  link: string | null;
}

/** A browser's push subscription as stored: keys, owner and when it was last registered. */
export interface SubscriptionValues {
  userId: number;
  p256dh: string;
  auth: string;
  userAgent: string | null;
  updatedAt: Date;
}

/** Sets `readAt` on the user's unread notifications (narrowed further by the caller). */
const unread = (tx: Executor, userId: number, readAt: Date) =>
  tx.updateTable('notifications').set({ readAt }).where('userId', '=', userId).where('readAt', 'is', null);

/** Inbox notifications and push subscriptions. */
export function notificationsRepository(db: Kysely<Database>) {
  return {
    /** One page of a user's inbox, newest first, each row with the inbox's total. */
    async listForUser(userId: number, limit: number, offset: number, tx: Executor = db) {
      return tx
        .selectFrom('notifications')
        .select(['id', 'title', 'message', 'link', 'readAt', 'createdAt'])
        .select((eb) => eb.fn.countAll<number>().over().as('total'))
        .where('userId', '=', userId)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /** How many notifications a user has. */
    async countForUser(userId: number, tx: Executor = db): Promise<number> {
      return Number(
        (
          await tx
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('userId', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    },

    /** Marks every unread notification of the user read. */
    async markAllRead(userId: number, readAt: Date, tx: Executor = db): Promise<void> {
      await unread(tx, userId, readAt).execute();
    },

    /** Marks the user's notification `id` read if it was unread; returns how many changed (0 or 1). */
    async markOneRead(userId: number, id: number, readAt: Date, tx: Executor = db): Promise<number> {
      const updated = await unread(tx, userId, readAt).where('id', '=', id).executeTakeFirst();
      return Number(updated.numUpdatedRows);
    },

    /** True when notification `id` is the user's. */
    async isUsers(userId: number, id: number, tx: Executor = db): Promise<boolean> {
      const own = await tx.selectFrom('notifications').select('id').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
      return own !== undefined;
    },

    /** The id of user `id`, if there is one. */
    async findUserId(id: number, tx: Executor = db): Promise<number | undefined> {
      return (await tx.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst())?.id;
    },

    /** One notification to one user. */
    async insert(userId: number, text: NotificationText, tx: Executor = db): Promise<void> {
      await tx.insertInto('notifications').values({ userId, title: text.title, message: text.message, link: text.link }).execute();
    },

    /** The same notification to every user of a role, in one statement; returns how many. */
    async insertForRole(role: Role, text: NotificationText, tx: Executor = db): Promise<number> {
      const result = await tx
        .insertInto('notifications')
        .columns(['userId', 'title', 'message', 'link'])
        .expression((eb) =>
          eb
            .selectFrom('users')
            .select(['users.id', eb.val(text.title).as('title'), eb.val(text.message).as('message'), eb.val(text.link).as('link')])
            .where('users.role', '=', role),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0);
    },

    /** Locks the user's row until the transaction ends, so per-user caps hold under parallel calls. */
    async lockUser(userId: number, tx: Executor = db): Promise<void> {
      await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.execute(tx);
    },

    /** Stores a browser's subscription; the same endpoint again replaces keys and owner. */
    async upsertSubscription(endpoint: string, values: SubscriptionValues, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('pushSubscriptions')
        .values({ ...values, endpoint })
        .onConflict((oc) => oc.column('endpoint').doUpdateSet(values))
        .execute();
    },

    /** Deletes the user's subscriptions past the `keep` most recently registered. */
    async pruneSubscriptions(userId: number, keep: number, tx: Executor = db): Promise<void> {
      await tx
        .deleteFrom('pushSubscriptions')
        .where('userId', '=', userId)
        .where('id', 'not in', (eb) =>
          eb
            .selectFrom('pushSubscriptions')
            .select('id')
            .where('userId', '=', userId)
            .orderBy('updatedAt', 'desc')
            .orderBy('id', 'desc')
            .limit(keep),
        )
        .execute();
    },
  };
}

export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
