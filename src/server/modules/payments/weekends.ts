import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { currentOrNextWeekend } from '../../lib/weekend';

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86400_000).toISOString().slice(0, 10);

/**
 * The Friday of the first weekend that has not started at `now`: a weekend runs Friday 00:00 to
 * Sunday 24:00 UTC, and one that is running is no longer for sale.
 */
export function firstUnstartedWeekend(now: Date): string {
  const current = currentOrNextWeekend(now);
  return Date.parse(`${current}T00:00:00Z`) > now.getTime() ? current : addDays(current, 7);
}

/**
 * The first weekend nobody has booked that has not started, and not before `notBefore` (the
 * weekend a checkout offered: paying later never books an earlier one than the buyer was shown).
 */
export async function nextFreeWeekend(db: Kysely<Database>, now: Date, notBefore?: string | null): Promise<string> {
  const unstarted = firstUnstartedWeekend(now);
  const from = notBefore && notBefore > unstarted ? notBefore : unstarted;
  const taken = await db
    .selectFrom('weekendBookings')
    .select('weekendStart')
    .where('status', '=', 'active')
    .where('weekendStart', '>=', from)
    .execute();
  const booked = new Set(taken.map((t) => t.weekendStart));
  let day = from;
  while (booked.has(day)) day = addDays(day, 7);
  return day;
}

/**
 * Books the first free weekend inside the caller's transaction. The partial unique index decides
 * between two buyers at once: the loser moves on to the weekend after.
 */
export async function bookWeekend(
  trx: Kysely<Database>,
  booking: { serverId: number; userId: number; paymentId: number },
  now: Date,
  notBefore?: string | null,
): Promise<string> {
  let day = await nextFreeWeekend(trx, now, notBefore);
  for (let attempt = 0; attempt < 520; attempt++) {
    const row = await trx
      .insertInto('weekendBookings')
      .values({ ...booking, weekendStart: day })
      .onConflict((oc) => oc.column('weekendStart').where('status', '=', 'active').doNothing())
      .returning('weekendStart')
      .executeTakeFirst();
    if (row) return row.weekendStart;
    day = addDays(day, 7);
  }
  throw new Error('no free weekend in ten years');
}
