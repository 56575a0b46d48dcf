import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** Boosts to credit: who gave them, to which server, from which payment (null for a free credit). */
export interface BoostCredit {
  serverId: number;
  userId: number;
  paymentId: number | null;
  amount: number;
  source: 'player' | 'owner' | 'premium_credit';
}

/** What money buys and a reversal takes back: boosts (with the server's counters) and weekend bookings. */
export function creditsRepository(db: Kysely<Database>) {
  return {
    /** Adds the boosts and raises the server's total and last-boosted time; answers the new total. */
    async creditBoosts(boost: BoostCredit, at: Date, tx: Executor = db): Promise<number> {
      await tx
        .insertInto('boosts')
        .values({ ...boost, createdAt: at })
        .execute();
      const row = await tx
        .updateTable('servers')
        .set((eb) => ({ totalBoosts: eb('totalBoosts', '+', boost.amount), lastBoostedAt: at }))
        .where('id', '=', boost.serverId)
        .returning('totalBoosts')
        .executeTakeFirst();
      return row?.totalBoosts ?? 0;
    },

    /**
     * Takes `amount` from the boost credits of a server of `ownerId`'s if it has that many (the
     * row lock of the update makes two spends at once take turns); answers the balance left, or
     * undefined.
     */
    async spendCredits(serverId: number, ownerId: number, amount: number, tx: Executor = db): Promise<number | undefined> {
      const row = await tx
        .updateTable('servers')
        .set((eb) => ({ boostCredits: eb('boostCredits', '-', amount) }))
        .where('id', '=', serverId)
        .where('ownerId', '=', ownerId)
        .where('boostCredits', '>=', amount)
        .returning('boostCredits')
        .executeTakeFirst();
      return row?.boostCredits;
    },

    /** Unspent boost credits of each of an owner's servers, oldest server first. */
    balancesOf: (ownerId: number) =>
      db.selectFrom('servers').select(['id', 'boostCredits']).where('ownerId', '=', ownerId).orderBy('id').execute(),

    /** Marks a payment's boosts revoked; answers what each revoked row had given. */
    revokeBoostsOfPayment: (paymentId: number, at: Date, tx: Executor = db) =>
      tx
        .updateTable('boosts')
        .set({ revokedAt: at })
        .where('paymentId', '=', paymentId)
        .where('revokedAt', 'is', null)
        .returning(['serverId', 'amount'])
        .execute(),

    /** Lowers a server's total (never below 0); its last-boosted time follows the boosts still counted. */
    async takeBackBoosts(serverId: number, amount: number, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('servers')
        .set((eb) => ({
          totalBoosts: sql<number>`greatest(${eb.ref('totalBoosts')} - ${amount}, 0)`,
          lastBoostedAt: eb
            .selectFrom('boosts')
            .select((x) => x.fn.max('createdAt').as('m'))
            .where('boosts.serverId', '=', serverId)
            .where('boosts.revokedAt', 'is', null),
        }))
        .where('id', '=', serverId)
        .execute();
    },

    /**
     * Counts a payment's revoked boosts again (a dispute we won), with the time they were first
     * credited; answers what each row gives.
     */
    restoreBoostsOfPayment: (paymentId: number, tx: Executor = db) =>
      tx
        .updateTable('boosts')
        .set({ revokedAt: null })
        .where('paymentId', '=', paymentId)
        .where('revokedAt', 'is not', null)
        .returning(['serverId', 'amount'])
        .execute(),

    /** Raises a server's total by boosts counted again; its last-boosted time follows the boosts counted. */
    async giveBackBoosts(serverId: number, amount: number, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('servers')
        .set((eb) => ({
          totalBoosts: eb('totalBoosts', '+', amount),
          lastBoostedAt: eb
            .selectFrom('boosts')
            .select((x) => x.fn.max('createdAt').as('m'))
            .where('boosts.serverId', '=', serverId)
            .where('boosts.revokedAt', 'is', null),
        }))
        .where('id', '=', serverId)
        .execute();
    },

    /** The weekend a payment had booked before a reversal freed it; none while it holds one. */
    revokedWeekendOfPayment: (paymentId: number, tx: Executor = db) =>
      tx
        .selectFrom('weekendBookings')
        .select(['serverId', 'weekendStart'])
        .where('paymentId', '=', paymentId)
        .where('status', '=', 'revoked')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('weekendBookings as held')
                .select('held.id')
                .whereRef('held.paymentId', '=', 'weekendBookings.paymentId')
                .where('held.status', '=', 'active'),
            ),
          ),
        )
        .orderBy('id', 'desc')
        .executeTakeFirst(),

    /** Fridays of the active weekend bookings from `from` on. */
    async bookedWeekendsFrom(from: string, tx: Executor = db): Promise<string[]> {
      const taken = await tx
        .selectFrom('weekendBookings')
        .select('weekendStart')
        .where('status', '=', 'active')
        .where('weekendStart', '>=', from)
        .execute();
      return taken.map((t) => t.weekendStart);
    },

    /**
     * Books a weekend unless an active booking holds it (the partial unique index decides between
     * two buyers at once); answers the booked Friday, or undefined when it was taken.
     */
    async bookWeekend(
      booking: { serverId: number; userId: number | null; paymentId: number },
      weekendStart: string,
      tx: Executor = db,
    ): Promise<string | undefined> {
      const row = await tx
        .insertInto('weekendBookings')
        .values({ ...booking, weekendStart })
        .onConflict((oc) => oc.column('weekendStart').where('status', '=', 'active').doNothing())
        .returning('weekendStart')
        .executeTakeFirst();
      return row?.weekendStart;
    },

    /** Frees the weekend a payment booked. */
    async revokeWeekendOfPayment(paymentId: number, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('weekendBookings')
        .set({ status: 'revoked' })
        .where('paymentId', '=', paymentId)
        .where('status', '=', 'active')
        .execute();
    },

    /** The newest weekend booked by the payment of a checkout. */
    bookedWeekendOfCheckout: (checkoutId: string, tx: Executor = db) =>
      tx
        .selectFrom('weekendBookings')
        .innerJoin('payments', 'payments.id', 'weekendBookings.paymentId')
        .select('weekendBookings.weekendStart')
        .where('payments.checkoutSessionId', '=', checkoutId)
        .orderBy('weekendBookings.id', 'desc')
        .executeTakeFirst(),
  };
}

export type CreditsRepository = ReturnType<typeof creditsRepository>;
