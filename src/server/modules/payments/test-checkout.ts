import type { UserRow } from '../../db/schema';
import { MSG } from '../../../shared/messages';
import type { CheckoutSession, CompleteCheckout } from '../../../shared/schemas/payments';
import { conflict, notFound } from '../../errors';
import { paymentsPolicy } from '../../policies/payments.policy';
import type { CheckoutsRepository } from './checkouts.repository';
import type { CreditsRepository } from './credits.repository';
import type { FulfilmentService } from './fulfilment.service';
import type { WeekendCalendar } from './weekends';
import { toApiCheckout } from './checkout.format';

interface Deps {
  checkouts: CheckoutsRepository;
  credits: Pick<CreditsRepository, 'bookedWeekendOfCheckout'>;
  weekends: Pick<WeekendCalendar, 'nextFree'>;
  fulfilment: Pick<FulfilmentService, 'fulfil'>;
  /** With Stripe keys the test checkout takes no payments. */
  stripeConfigured: boolean;
  now: () => Date;
}

/**
 * The built-in test checkout, used when Stripe is not configured: its page reads the session, Pay
 * fulfils it exactly as a verified webhook would (docs/decisions/008-one-fulfilment-path.md).
 */
export function testCheckout({ checkouts, credits, weekends, fulfilment, stripeConfigured, now }: Deps) {
  /** The weekend a paid checkout booked, and a notice when it is not the one the checkout offered. */
  const bookedWeekend = async (checkoutId: string, offered: string | null) => {
    const booking = await credits.bookedWeekendOfCheckout(checkoutId);
    if (!booking) return undefined;
    return { weekendStart: booking.weekendStart, notice: offered && offered !== booking.weekendStart ? MSG.weekendMoved : null };
  };

  return {
    /** The test checkout page's view of a session: only its buyer may see it. */
    async get(actor: UserRow, id: string): Promise<CheckoutSession> {
      const row = await checkouts.findOfBuyer(id, actor.id);
      if (!row) throw notFound(MSG.checkoutNotFound);
      const [serverRow, booked] = await Promise.all([
        row.serverId ? checkouts.findServerName(row.serverId) : undefined,
        row.kind === 'serverOfTheWeekend' && row.status === 'complete' ? bookedWeekend(row.id, row.weekendStart) : undefined,
      ]);
      const weekend =
        row.kind === 'serverOfTheWeekend'
          ? (booked?.weekendStart ?? (row.status === 'open' ? await weekends.nextFree(now(), row.weekendStart) : null))
          : null;
      return toApiCheckout(row, serverRow?.name ?? null, weekend, booked?.notice ?? null);
    },

    /** Pay on the test checkout: the same fulfilment as a verified webhook, once. Refused with Stripe keys. */
    async completeTest(actor: UserRow, id: string): Promise<CompleteCheckout> {
      paymentsPolicy.assertTestCheckoutOpen(stripeConfigured);
      const row = paymentsPolicy.assertCanPayTest(actor, await checkouts.findForPayment(id));
      const result = await fulfilment.fulfil(id);
      const booked = row.kind === 'serverOfTheWeekend' ? await bookedWeekend(id, row.weekendStart) : undefined;
      return {
        returnPath: result?.returnPath ?? row.returnPath,
        credited: Boolean(result?.credited),
        weekendStart: booked?.weekendStart ?? null,
        notice: booked?.notice ?? null,
      };
    },

    /** Cancel on the test checkout: an open session closes; a completed one cannot be taken back here. */
    async cancelTest(actor: UserRow, id: string): Promise<{ returnPath: string }> {
      paymentsPolicy.assertTestCheckoutOpen(stripeConfigured);
      const row = await checkouts.cancelOpenTest(id, actor.id);
      if (row) return { returnPath: row.returnPath };
      const existing = await checkouts.findStatusOfBuyer(id, actor.id);
      if (!existing) throw notFound(MSG.checkoutNotFound);
      if (existing.status === 'complete') throw conflict(MSG.checkoutClosed);
      return { returnPath: existing.returnPath };
    },
  };
}
