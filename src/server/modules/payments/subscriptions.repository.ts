import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, SubscriptionsTable } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** Subscriptions that give a plan: billing state ends nothing until their status says so. */
const LIVE = ['active', 'past_due'] as const;

/** Subscriptions and the plan they give their user. */
export function subscriptionsRepository(db: Kysely<Database>) {
  return {
    /** The user's live subscriptions (active or past due). */
    liveOf: (userId: number, tx: Executor = db) =>
      tx
        .selectFrom('subscriptions')
        .selectAll()
        .where('userId', '=', userId)
        .where('status', 'in', [...LIVE])
        .execute(),

    /** The user's most recently updated live subscription, for the payments page. */
    newestLiveOf: (userId: number, tx: Executor = db) =>
      tx
        .selectFrom('subscriptions')
        .select(['plan', 'status', 'currentPeriodEnd'])
        .where('userId', '=', userId)
        .where('status', 'in', [...LIVE])
        .orderBy('updatedAt', 'desc')
        .executeTakeFirst(),

    /** Sets the user's plan from their newest live subscription (none: no plan). */
    async refreshUserPlan(userId: number, at: Date, tx: Executor = db): Promise<void> {
      const live = await tx
        .selectFrom('subscriptions')
        .select('plan')
        .where('userId', '=', userId)
        .where('status', 'in', [...LIVE])
        // A plan given back until a time gives nothing after it, even before `endLapsed` runs.
        .where((eb) => eb.or([eb('endsAt', 'is', null), eb('endsAt', '>', at)]))
        .orderBy('updatedAt', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      await tx
        .updateTable('users')
        .set({ subscriptionPlan: live?.plan ?? '', updatedAt: at })
        .where('id', '=', userId)
        .execute();
    },

    /** Cancels every live subscription of the user, as a cancel request at `at`. */
    async cancelLiveOf(userId: number, at: Date, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('subscriptions')
        .set({ status: 'canceled', canceledAt: at, updatedAt: at, lastEventAt: at })
        .where('userId', '=', userId)
        .where('status', 'in', [...LIVE])
        .execute();
    },

    findByStripeId: (stripeSubscriptionId: string, tx: Executor = db) =>
      tx.selectFrom('subscriptions').selectAll().where('stripeSubscriptionId', '=', stripeSubscriptionId).executeTakeFirst(),

    /** Whose a Stripe subscription is and for which plan. */
    findOwnerByStripeId: (stripeSubscriptionId: string, tx: Executor = db) =>
      tx.selectFrom('subscriptions').select(['userId', 'plan']).where('stripeSubscriptionId', '=', stripeSubscriptionId).executeTakeFirst(),

    async update(id: number, changes: Updateable<SubscriptionsTable>, tx: Executor = db): Promise<void> {
      await tx.updateTable('subscriptions').set(changes).where('id', '=', id).execute();
    },

    /** Inserts a Stripe subscription; a concurrent insert of the same one wins and this does nothing. */
    async insertStripe(subscription: Insertable<SubscriptionsTable>, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('subscriptions')
        .values(subscription)
        .onConflict((oc) => oc.column('stripeSubscriptionId').doNothing())
        .execute();
    },

    /** Cancels every subscription of the user not canceled yet (the test checkout's one local plan). */
    async cancelAllOf(userId: number, at: Date, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('subscriptions')
        .set({ status: 'canceled', canceledAt: at, updatedAt: at })
        .where('userId', '=', userId)
        .where('status', '!=', 'canceled')
        .execute();
    },

    async insertLocal(subscription: Insertable<SubscriptionsTable>, tx: Executor = db): Promise<void> {
      await tx.insertInto('subscriptions').values(subscription).execute();
    },

    /**
     * A plan given back after a won dispute, for the period its payment paid: no Stripe
     * subscription bills or ends it, so it ends by itself at `endsAt`.
     */
    async insertUntil(
      plan: { userId: number; plan: 'Pro' | 'Premium'; endsAt: Date; lastEventAt: Date },
      at: Date,
      tx: Executor = db,
    ): Promise<void> {
      await tx
        .insertInto('subscriptions')
        .values({
          ...plan,
          status: 'active',
          stripeSubscriptionId: null,
          currentPeriodEnd: plan.endsAt,
          createdAt: at,
          updatedAt: at,
        })
        .execute();
    },

    /** Cancels the live plans whose end has come; answers their users. */
    endLapsed: (at: Date, tx: Executor = db) =>
      tx
        .updateTable('subscriptions')
        .set({ status: 'canceled', canceledAt: at, updatedAt: at })
        .where('endsAt', '<=', at)
        .where('status', 'in', [...LIVE])
        .returning('userId')
        .execute(),

    /** Cancels a Stripe subscription here; answers the users whose subscription rows it ended. */
    endStripe: (stripeSubscriptionId: string, at: Date, tx: Executor = db) =>
      tx
        .updateTable('subscriptions')
        .set({ status: 'canceled', canceledAt: at, updatedAt: at })
        .where('stripeSubscriptionId', '=', stripeSubscriptionId)
        .where('status', '!=', 'canceled')
        .returning('userId')
        .execute(),

    /** True when the user exists (a webhook may name one deleted since). */
    async userExists(userId: number, tx: Executor = db): Promise<boolean> {
      return Boolean(await tx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());
    },
  };
}

export type SubscriptionsRepository = ReturnType<typeof subscriptionsRepository>;
