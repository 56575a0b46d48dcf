import crypto from 'node:crypto';
import { ByteSlots } from '../../lib/byte-slots';
import { IdSlots } from '../../lib/id-slots';
import { SlotOrder } from '../../lib/slot-order';
import { grown } from '../../lib/typed-arrays';
import { cardShowsRow } from './card-figures';
import { decodeCard, encodeCard, heldKey, viewOf } from './card-codec';
import { withCounters } from './card-counters';
import type { ChangedRow } from './search-index.types';
import type { VoteCounters } from './cache-change';
import { Card, CARD_DIGEST_BYTES } from './card';

/** Enough for every listed server at the benchmark's 100,000 (~57 MB held there, 87 MB as JSON). */
export const CARDS_MAX = 150_000;

export type LoadCards = (ids: number[]) => Promise<Map<number, string>>;

/** What was dropped while one read was out: its cards of those ids may show what just changed. */
interface Read {
  ids: Set<number>;
  all: boolean;
}

/**
 * Whether a card shows no joins of the last 24 hours and no boosts of the last 7 days (the API
 * writes `"joins":0` and `"boosts":0`; `"totalJoins"` and `"totalBoosts"` do not match).
 */
const isStill = (json: string): boolean => /"joins":0[,}]/.test(json) && /"boosts":0[,}]/.test(json);
/** A still card is read again after this many card times (a safety net: nothing on it drifts). */
const STILL_READ_EVERY = 6;

const digestOf = (held: Buffer): Buffer => crypto.hash('sha1', held, 'buffer') as unknown as Buffer;

/**
 * Each server's card as JSON, made once and joined into list answers, so a search the response
 * cache has never seen reads from the database only the cards it does not hold. Dropped when the
 * server's row changes (the search index's delta, a vote, a join) and after `ttlMs` (the 24-hour
 * joins and 7-day boosts on a card move with time); a refresher keeps every listed server's card
 * read well within that (docs/decisions/028-search-index.md). 0: no cache (the tests).
 *
 * Each card's digest and bytes live together outside the JavaScript heap, by slot, and its read
 * time in a typed array: a card costs the heap no object (docs/decisions/041-cards-off-heap.md).
 */
export class CardCache {
  /** Held cards' slots by server id. */
  private readonly slotOf = new IdSlots();
  private readonly spareSlots: number[] = [];
  private slotsUsed = 0;
  private readonly bytes = new ByteSlots();
  /** Held cards' slots, oldest read first (`keep` moves a slot to the end). */
  private readonly order = new SlotOrder(this.bytes.capacity);
  /** Each slot's server id (any id a Map would take, not only 32-bit ones). */
  private idOf = new Float64Array(this.bytes.capacity);
  /** When each slot's card was last due for a read: its read, or a still card's renewal. */
  private readAt = new Float64Array(this.bytes.capacity);
  /** When each slot's card was read from the database. */
  private loadedAt = new Float64Array(this.bytes.capacity);
  /** Bytes of each slot's card as JSON (it is held shorter). */
  private jsonLength = new Int32Array(this.bytes.capacity);
  /** 1 where the card shows no joins of the last 24 hours and no boosts of the last 7 days. */
  private still = new Uint8Array(this.bytes.capacity);
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
      const slot = this.freshSlot(id, now);
      if (slot !== undefined) found[i] = this.cardAt(id, slot);
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
    return ids.filter((id) => !this.slotOf.has(id));
  }

  /**
   * At most `max` ids whose cards were read more than `olderThanMs` ago, oldest first. A still card
   * (no joins of the last day, no boosts of the last week: nothing on it moves with time, and
   * anything that changes it drops it) is renewed in place instead, up to `STILL_READ_EVERY` times
   * the card time since it was read: most servers are still, and reading them again every few
   * minutes was most of the refresher's queries.
   */
  ageing(olderThanMs: number, max: number): number[] {
    const out: number[] = [];
    const now = Date.now();
    const before = now - olderThanMs;
    for (let slot = this.order.first(); slot >= 0;) {
      const next = this.order.after(slot);
      if (out.length >= max || this.readAt[slot]! > before) break;
      if (this.still[slot] === 1 && now - this.loadedAt[slot]! < this.ttlMs * STILL_READ_EVERY) {
        // To the end of the refresh order, as if read now (the loop stops when it meets it again).
        this.order.toEnd(slot);
        this.readAt[slot] = now;
      } else {
        out.push(this.idOf[slot]!);
      }
      slot = next;
    }
    return out;
  }

  /** Reads and keeps the cards of `ids` (the refresher). */
  async refresh(ids: number[], load: LoadCards): Promise<void> {
    if (ids.length > 0) await this.read(ids, load, Date.now());
  }

  get size(): number {
    return this.slotOf.size;
  }

  /** A held card's JSON, unless it is older than the cache time. */
  peek(id: number): string | undefined {
    const slot = this.freshSlot(id, Date.now());
    return slot === undefined ? undefined : this.jsonAt(slot).toString('utf8');
  }

  /**
   * Sets a held card's vote counters to what the vote's statement answered, instead of dropping
   * it (the vote's answer is then this card). A read under way may hold the card from before the
   * vote: it is not kept, as after a drop. False when the card is not held (the caller drops it).
   */
  setCounters(id: number, counters: VoteCounters): boolean {
    for (const read of this.reads) read.ids.add(id);
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const held = this.bytes.get(slot)!.subarray(CARD_DIGEST_BYTES);
    const written = withCounters(held, counters, heldKey);
    // Votes only add: fewer than the card shows is an older vote's news arriving late (another
    // instance's), or a new month's count. That card, and one whose counters cannot be read as
    // whole numbers, is read afresh instead.
    if (written === 'older' || written === undefined) this.forget(id, slot);
    // In place: its read time, and so its place in the refresh order, stay.
    // Only digits changed, so the JSON grew or shrank by what the held bytes did.
    else this.holdCoded(slot, written, this.jsonLength[slot]! + written.length - held.length);
    return true;
  }

  drop(ids: Iterable<number>): void {
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) this.forget(id, slot);
      for (const read of this.reads) read.ids.add(id);
    }
  }

  /**
   * After the search index read the rows written since its last read: drops the cards of deleted
   * servers and of rows that now say something else than their card shows (another instance's
   * vote, a game poll). Views counted alone are never read here: they keep the row's `row_xid`,
   * so a card's views are as of its last read (docs/decisions/058-server-page-uncached.md). A card
   * a vote here has already set stays held: reading it again would ask the database for what this
   * cache holds, for every server voted on.
   */
  dropChanged(rows: readonly ChangedRow[], deleted: readonly number[]): void {
    this.drop(deleted);
    for (const row of rows) {
      // A read under way may have the row from before this write: it is not kept.
      for (const read of this.reads) read.ids.add(row.id);
      const slot = this.slotOf.get(row.id);
      if (slot === undefined) continue;
      const card = JSON.parse(this.jsonAt(slot).toString('utf8')) as Record<string, unknown>;
      if (!cardShowsRow(card, row)) this.forget(row.id, slot);
    }
  }

  clear(): void {
    this.slotOf.clear();
    this.order.clear();
    this.spareSlots.length = 0;
    this.slotsUsed = 0;
    this.bytes.clear();
    for (const read of this.reads) read.all = true;
  }

  private freshSlot(id: number, now: number): number | undefined {
    const slot = this.slotOf.get(id);
    return slot !== undefined && now - this.readAt[slot]! < this.ttlMs ? slot : undefined;
  }

  private cardAt(id: number, slot: number): Card {
    const bytes = this.bytes;
    return new Card(id, bytes.chunkAt(slot)!, bytes.viewAt(slot)!, bytes.offsetAt(slot), bytes.lengthAt(slot), this.jsonLength[slot]!);
  }

  /** A held card's JSON. */
  private jsonAt(slot: number): Buffer {
    return decodeCard(this.bytes.get(slot)!, CARD_DIGEST_BYTES);
  }

  /** Writes a card's bytes into its slot: the digest of its coded JSON, then those bytes. */
  private holdCoded(slot: number, coded: Buffer, jsonLength: number): void {
    this.bytes.put(slot, coded, digestOf(coded));
    this.jsonLength[slot] = jsonLength;
  }

  /** Loads cards and keeps those nothing dropped while they were read. */
  private async read(ids: number[], load: LoadCards, at: number): Promise<Map<number, Card>> {
    const read: Read = { ids: new Set(), all: false };
    this.reads.add(read);
    try {
      const loaded = await load(ids);
      const cards = new Map<number, Card>();
      for (const [id, json] of loaded) {
        if (this.ttlMs > 0 && !read.all && !read.ids.has(id)) cards.set(id, this.cardAt(id, this.keep(id, json, at)));
        else {
          const coded = encodeCard(json);
          const held = Buffer.concat([digestOf(coded), coded]);
          cards.set(id, new Card(id, held, viewOf(held), 0, held.length, Buffer.byteLength(json)));
        }
      }
      return cards;
    } finally {
      this.reads.delete(read);
    }
  }

  /** Holds a card read at `at`, last in the refresh order; answers its slot. */
  private keep(id: number, json: string, at: number): number {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.spareSlots.pop() ?? this.newSlot();
      this.slotOf.set(id, slot);
      this.idOf[slot] = id;
    }
    this.order.toEnd(slot);
    this.holdCoded(slot, encodeCard(json), Buffer.byteLength(json));
    this.readAt[slot] = at;
    this.loadedAt[slot] = at;
    this.still[slot] = isStill(json) ? 1 : 0;
    // Oldest first out.
    if (this.slotOf.size > this.maxEntries) {
      const oldSlot = this.order.first();
      this.forget(this.idOf[oldSlot]!, oldSlot);
    }
    return slot;
  }

  private forget(id: number, slot: number): void {
    this.slotOf.delete(id);
    this.order.remove(slot);
    this.bytes.free(slot);
    this.spareSlots.push(slot);
  }

  private newSlot(): number {
    const slot = this.slotsUsed++;
    if (slot >= this.bytes.capacity) {
      const capacity = this.bytes.capacity * 2;
      this.bytes.grow(capacity);
      this.order.grow(capacity);
      this.idOf = grown(this.idOf, new Float64Array(capacity));
      this.readAt = grown(this.readAt, new Float64Array(capacity));
      this.loadedAt = grown(this.loadedAt, new Float64Array(capacity));
      this.jsonLength = grown(this.jsonLength, new Int32Array(capacity));
      this.still = grown(this.still, new Uint8Array(capacity));
    }
    return slot;
  }
}
