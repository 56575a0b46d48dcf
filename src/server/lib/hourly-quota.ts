/**
 * At most `max` units per key per clock hour, in this process's memory. It bounds what one
 * client network may add to counters that are only statistics; the database's unique keys are
 * what make each count happen once, so a restart or a second instance only loosens this bound.
 * Past `maxKeys` distinct keys in one hour, new keys get nothing: memory stays bounded when
 * someone sprays addresses, and the cost is some uncounted statistics for that hour.
 */
export class HourlyQuota {
  private hour = -1;
  private readonly used = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxKeys = 200_000,
  ) {}

  /** Takes `units` from `key`'s allowance for this hour; false (nothing taken) when it would pass `max`. */
  take(key: string, nowMs: number, units = 1): boolean {
    const hour = Math.floor(nowMs / 3600_000);
    if (hour !== this.hour) {
      this.hour = hour;
      this.used.clear();
    }
    const used = this.used.get(key);
    if (used === undefined && this.used.size >= this.maxKeys) return false;
    if ((used ?? 0) + units > this.max) return false;
    this.used.set(key, (used ?? 0) + units);
    return true;
  }
}
