/**
 * Each server's card as JSON, made once and joined into list answers, so a search the response
 * cache has never seen reads from the database only the cards it does not hold. Dropped when the
 * server's row changes (the search index's delta, a vote, a join) and after `ttlMs` (the 24-hour
 * joins and 7-day boosts on a card move with time). 0: no cache (the tests).
 */
export class CardCache {
  private readonly entries = new Map<number, { json: string; at: number }>();
  /** Bumped by every drop: a card read before it is not kept (it may show what just changed). */
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 20_000,
  ) {}

  /** The cards of `ids` in that order (ids no longer found are left out), reading the missing ones with `load`. */
  async cards(ids: readonly number[], load: (ids: number[]) => Promise<Map<number, string>>): Promise<Array<{ id: number; json: string }>> {
    const now = Date.now();
    const found = new Map<number, string>();
    const missing: number[] = [];
    for (const id of ids) {
      const hit = this.entries.get(id);
      if (hit && now - hit.at < this.ttlMs) found.set(id, hit.json);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const epoch = this.epoch;
      const loaded = await load(missing);
      for (const [id, json] of loaded) {
        found.set(id, json);
        if (this.ttlMs > 0 && epoch === this.epoch) this.keep(id, json, now);
      }
    }
    const out: Array<{ id: number; json: string }> = [];
    for (const id of ids) {
      const json = found.get(id);
      if (json !== undefined) out.push({ id, json });
    }
    return out;
  }

  drop(ids: Iterable<number>): void {
    this.epoch++;
    for (const id of ids) this.entries.delete(id);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  private keep(id: number, json: string, at: number): void {
    this.entries.delete(id);
    this.entries.set(id, { json, at });
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as number);
  }
}
