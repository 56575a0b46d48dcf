/**
 * The weekend (Friday 00:00 to Sunday 24:00 UTC) that is on now, or between
 * weekends the coming one, as its Friday 'YYYY-MM-DD'.
 */
export function currentOrNextWeekend(now: Date): string {
  const day = now.getUTCDay(); // 0 Sunday … 5 Friday, 6 Saturday
  const offset = day === 5 ? 0 : day === 6 ? -1 : day === 0 ? -2 : 5 - day;
  const friday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
  return friday.toISOString().slice(0, 10);
}
