import type { Insertable, Kysely } from 'kysely';
import type { CheckoutSessionsTable, Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** Checkout sessions (what is being bought, at what price) and the servers they are for. */
export function checkoutsRepository(db: Kysely<Database>) {
  return {
    /** The server a purchase names, hidden or not: the service decides what a hidden one means. */
    findServer: (id: number, tx: Executor = db) =>
      tx.selectFrom('servers').select(['id', 'name', 'ownerId', 'hidden']).where('id', '=', id).executeTakeFirst(),

    findServerName: (id: number, tx: Executor = db) => tx.selectFrom('servers').select('name').where('id', '=', id).executeTakeFirst(),

    async insert(session: Insertable<CheckoutSessionsTable>, tx: Executor = db): Promise<void> {
      await tx.insertInto('checkoutSessions').values(session).execute();
    },

    /** A session as its buyer sees it; another user's is not found. */
    findOfBuyer: (id: string, userId: number, tx: Executor = db) =>
      tx.selectFrom('checkoutSessions').selectAll().where('id', '=', id).where('userId', '=', userId).executeTakeFirst(),

    /** What the test checkout's Pay checks before fulfilling. */
    findForPayment: (id: string, tx: Executor = db) =>
      tx
        .selectFrom('checkoutSessions')
        .select(['userId', 'status', 'returnPath', 'provider', 'kind', 'weekendStart'])
        .where('id', '=', id)
        .executeTakeFirst(),

    /** Cancels the buyer's open test-checkout session; undefined when there was none to cancel. */
    cancelOpenTest: (id: string, userId: number, tx: Executor = db) =>
      tx
        .updateTable('checkoutSessions')
        .set({ status: 'canceled' })
        .where('id', '=', id)
        .where('userId', '=', userId)
        .where('provider', '=', 'test')
        .where('status', '=', 'open')
        .returning('returnPath')
        .executeTakeFirst(),

    findStatusOfBuyer: (id: string, userId: number, tx: Executor = db) =>
      tx
        .selectFrom('checkoutSessions')
        .select(['returnPath', 'status'])
        .where('id', '=', id)
        .where('userId', '=', userId)
        .executeTakeFirst(),

    /**
     * Moves an open session to complete: the check that makes a checkout credit once. Undefined
     * when it was not open (already fulfilled, canceled, or unknown).
     */
    completeOpen: (id: string, completion: { completedAt: Date; paymentIntentId: string | null }, tx: Executor = db) =>
      tx
        .updateTable('checkoutSessions')
        .set({ status: 'complete', completedAt: completion.completedAt, stripePaymentIntentId: completion.paymentIntentId })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .returningAll()
        .executeTakeFirst(),

    findReturnPath: (id: string, tx: Executor = db) =>
      tx.selectFrom('checkoutSessions').select('returnPath').where('id', '=', id).executeTakeFirst(),
  };
}

export type CheckoutsRepository = ReturnType<typeof checkoutsRepository>;
