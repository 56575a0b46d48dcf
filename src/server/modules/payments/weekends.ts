import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { currentOrNextWeekend } from '../../lib/weekend';

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86400_000).toISOString().slice(0, 10);

/** The first weekend from this one on that nobody has booked (decisions §5). */
export async function nextFreeWeekend(db: Kysely<Database>, now: Date): Promise<string> {
  const from = currentOrNextWeekend(now);
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
): Promise<string> {
  let day = await nextFreeWeekend(trx, now);
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
