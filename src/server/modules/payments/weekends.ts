import type { Executor } from '../../db/transaction';
import { currentOrNextWeekend } from '../../lib/weekend';
import type { CreditsRepository } from './credits.repository';

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86400_000).toISOString().slice(0, 10);

/**
 * The Friday of the first weekend that has not started at `now`: a weekend runs Friday 00:00 to
 * Sunday 24:00 UTC, and one that is running is no longer for sale.
 */
export function firstUnstartedWeekend(now: Date): string {
  const current = currentOrNextWeekend(now);
  return Date.parse(`${current}T00:00:00Z`) > now.getTime() ? current : addDays(current, 7);
}

/** The Server of the Weekend calendar over the bookings. */
export function weekendCalendar(credits: Pick<CreditsRepository, 'bookedWeekendsFrom' | 'bookWeekend'>) {
  /**
   * The first weekend nobody has booked that has not started, and not before `notBefore` (the
   * weekend a checkout offered: paying later never books an earlier one than the buyer was shown).
   */
  const nextFree = async (now: Date, notBefore?: string | null, tx?: Executor): Promise<string> => {
    const unstarted = firstUnstartedWeekend(now);
    const from = notBefore && notBefore > unstarted ? notBefore : unstarted;
    const booked = new Set(await credits.bookedWeekendsFrom(from, tx));
    let day = from;
    while (booked.has(day)) day = addDays(day, 7);
    return day;
  };

  return {
    nextFree,

    /**
     * Books the first free weekend inside the caller's transaction. The partial unique index
     * decides between two buyers at once: the loser moves on to the weekend after.
     */
    async book(
      booking: { serverId: number; userId: number | null; paymentId: number },
      now: Date,
      notBefore: string | null | undefined,
      tx: Executor,
    ): Promise<string> {
      let day = await nextFree(now, notBefore, tx);
      for (let attempt = 0; attempt < 520; attempt++) {
        const booked = await credits.bookWeekend(booking, day, tx);
        if (booked) return booked;
        day = addDays(day, 7);
      }
      throw new Error('no free weekend in ten years');
    },
  };
}

export type WeekendCalendar = ReturnType<typeof weekendCalendar>;
