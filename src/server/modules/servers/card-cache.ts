import crypto from 'node:crypto';

/** A card and a digest of it, so a list answer's ETag is a digest of its cards' digests (no hashing of the whole answer). */
export interface Card {
  id: number;
  json: string;
  digest: string;
}

/** Enough for every listed server at the benchmark's 100,000 (about 70 MB of JSON at the most). */
export const CARDS_MAX = 150_000;

export type LoadCards = (ids: number[]) => Promise<Map<number, string>>;

/** What was dropped while one read was out: its cards of those ids may show what just changed. */
interface Read {
  ids: Set<number>;
  all: boolean;
}

/**
 * Each server's card as JSON, made once and joined into list answers, so a search the response
 * cache has never seen reads from the database only the cards it does not hold. Dropped when the
 * server's row changes (the search index's delta, a vote, a join) and after `ttlMs` (the 24-hour
 * joins and 7-day boosts on a card move with time); a refresher keeps every listed server's card
 * read well within that (docs/decisions/028-search-index.md). 0: no cache (the tests).
 */
export class CardCache {
  private readonly entries = new Map<number, { card: Card; at: number }>();
  /** Reads under way: a drop is noted in each, so a card read before it is not kept. */
  private readonly reads = new Set<Read>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = CARDS_MAX,
  ) {}

  /** The cards of `ids` in that order (ids no longer found are left out), reading the missing ones with `load`. */
  async cards(ids: readonly number[], load: LoadCards): Promise<Card[]> {
    const now = Date.now();
    const found: Array<Card | undefined> = new Array(ids.length);
    let missing: number[] | undefined;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const hit = this.entries.get(id);
      if (hit && now - hit.at < this.ttlMs) found[i] = hit.card;
      else (missing ??= []).push(id);
    }
    if (missing) {
      const loaded = await this.read(missing, load, now);
      for (let i = 0; i < ids.length; i++) found[i] ??= loaded.get(ids[i]!);
    }
    return found.filter((card): card is Card => card !== undefined);
  }

  /** Of `ids`, the ones with no card. */
  missing(ids: readonly number[]): number[] {
    return ids.filter((id) => !this.entries.has(id));
  }

  /** At most `max` ids whose cards were read more than `olderThanMs` ago, oldest first. */
  ageing(olderThanMs: number, max: number): number[] {
    const out: number[] = [];
    const before = Date.now() - olderThanMs;
    // A Map iterates in insertion order and `keep` re-inserts: stop at the first young one.
    for (const [id, entry] of this.entries) {
      if (out.length >= max || entry.at > before) break;
      out.push(id);
    }
    return out;
  }

  /** Reads and keeps the cards of `ids` (the refresher). */
  async refresh(ids: number[], load: LoadCards): Promise<void> {
    if (ids.length > 0) await this.read(ids, load, Date.now());
  }

  get size(): number {
    return this.entries.size;
  }

  /** A held card's JSON, unless it is older than the cache time. */
  peek(id: number): string | undefined {
    const hit = this.entries.get(id);
    return hit && Date.now() - hit.at < this.ttlMs ? hit.card.json : undefined;
  }

  /**
   * Sets a held card's vote counters to what the vote's statement answered, instead of dropping
   * it (the vote's answer is then this card). A read under way may hold the card from before the
   * vote: it is not kept, as after a drop. False when the card is not held (the caller drops it).
   */
  setCounters(id: number, counters: { likes: number; dislikes: number }): boolean {
    for (const read of this.reads) read.ids.add(id);
    const hit = this.entries.get(id);
    if (!hit) return false;
    const card = JSON.parse(hit.card.json) as { likes: number; dislikes: number };
    // Votes only add: fewer than the card shows is an older vote's news arriving late (another
    // instance's), and the card is read afresh instead.
    if (counters.likes + counters.dislikes < card.likes + card.dislikes) {
      this.entries.delete(id);
      return true;
    }
    card['likes'] = counters.likes;
    card['dislikes'] = counters.dislikes;
    const json = JSON.stringify(card);
    this.entries.set(id, { card: { id, json, digest: crypto.hash('sha1', json, 'base64url') }, at: hit.at });
    return true;
  }

  drop(ids: Iterable<number>): void {
    for (const id of ids) {
      this.entries.delete(id);
      for (const read of this.reads) read.ids.add(id);
    }
  }

  clear(): void {
    this.entries.clear();
    for (const read of this.reads) read.all = true;
  }

  /** Loads cards and keeps those nothing dropped while they were read. */
  private async read(ids: number[], load: LoadCards, at: number): Promise<Map<number, Card>> {
    const read: Read = { ids: new Set(), all: false };
    this.reads.add(read);
    try {
      const loaded = await load(ids);
      const cards = new Map<number, Card>();
      for (const [id, json] of loaded) {
        const card = { id, json, digest: crypto.hash('sha1', json, 'base64url') };
        cards.set(id, card);
        if (this.ttlMs > 0 && !read.all && !read.ids.has(id)) this.keep(card, at);
      }
      return cards;
    } finally {
      this.reads.delete(read);
    }
  }

  private keep(card: Card, at: number): void {
    this.entries.delete(card.id);
    this.entries.set(card.id, { card, at });
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as number);
  }
}
