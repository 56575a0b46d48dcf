/**
 * When the counters a rendered page shows last changed (a vote, a join, a game poll round, a new
 * month), so a held page can tell whether it missed a change long enough ago to be made again.
 * Coarse and small: one time per `grainMs` (the latest change in it), none older than `keepMs`, so
 * a stream of a thousand votes a second costs a comparison each and a few hundred numbers at most.
 * A page made inside a grain may see its change up to a grain late.
 */
export class CounterChanges {
  /** The latest change of each grain, oldest first. */
  private readonly times: number[] = [];
  /** When the last grain began (its first change). */
  private grainStart = -Infinity;

  constructor(
    /** At least as long as a page is ever held: older changes cannot matter. */
    private readonly keepMs: number,
    private readonly grainMs = 50,
  ) {}

  note(now = Date.now()): void {
    // The latest change of a grain stands for all of it: a page made inside the grain still sees
    // one after it, at the cost of being held up to a grain longer.
    if (now - this.grainStart < this.grainMs) this.times[this.times.length - 1] = now;
    else {
      this.grainStart = now;
      this.times.push(now);
    }
    let old = 0;
    while (old < this.times.length && now - this.times[old]! > this.keepMs) old += 1;
    if (old > 0) this.times.splice(0, old);
  }

  /** Whether a change came at or after `since` and no later than `until`. */
  between(since: number, until: number): boolean {
    for (let i = this.times.length - 1; i >= 0; i--) {
      const at = this.times[i]!;
      // At `since` itself counts: a change in the very millisecond a page began may not be in it.
      if (at <= until) return at >= since;
    }
    return false;
  }

  /** Times held (one a grain at most). */
  get size(): number {
    return this.times.length;
  }
}
