import { KeyTable } from './key-table';

/**
 * At most `max` units per key per clock hour, in this process's memory. It bounds what one
 * client network may add to counters that are only statistics; the database's unique keys are
 * what make each count happen once, so a restart or a second instance only loosens this bound.
 * Past `maxKeys` distinct keys in one hour, new keys get nothing: memory stays bounded when
 * someone sprays addresses, and the cost is some uncounted statistics for that hour.
 */
export class HourlyQuota {
  private hour = -1;
  /** Each network's units used this hour, held without a string per key (lib/key-table.ts). */
  private readonly used: KeyTable;

  constructor(
    private readonly max: number,
    maxKeys = 200_000,
  ) {
    this.used = new KeyTable(maxKeys);
  }

  /** Takes `units` from `key`'s allowance for this hour; false (nothing taken) when it would pass `max`. */
  take(key: string, nowMs: number, units = 1): boolean {
    const hour = Math.floor(nowMs / 3600_000);
    if (hour !== this.hour) {
      this.hour = hour;
      this.used.clear();
    }
    const found = this.used.find(key);
    const used = found >= 0 ? this.used.count(found) : 0;
    if (used + units > this.max) return false;
    const slot = found >= 0 ? found : this.used.add(key);
    if (slot < 0) return false;
    this.used.setCount(slot, used + units);
    return true;
  }
}
