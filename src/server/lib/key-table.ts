import { keyHasher } from './key-hash';

/** Slots at first, and again after `clear`; the table doubles when three quarters full. */
const FIRST_CAPACITY = 1 << 10;

/**
 * A set of string keys with a small count each, held in typed arrays: 12 bytes a slot and no
 * string or object per key, so the JavaScript heap that every full collection marks does not grow
 * with the keys: a `Set` of 200,000 keys such as `v|123|n:2001:db8:7b::/64|2026-12-07` grew it by
 * 34 MB (key-table.test.ts); the table's arrays at that size are 6 MB outside it. Keys are held as
 * 64-bit hashes keyed by a secret of this process (`keyHasher`): a false match has a chance of
 * about n²/2⁶⁵, which a statistic can afford.
 *
 * Open addressing with linear probing; a hash of 0 in both halves marks an empty slot (a key
 * hashing there is moved to 1). At most `maxKeys` keys: past it `add` answers -1 and the owner
 * decides (forget everything, or refuse the key).
 */
export class KeyTable {
  private readonly hashOf = keyHasher();
  private hi = new Uint32Array(FIRST_CAPACITY);
  private lo = new Uint32Array(FIRST_CAPACITY);
  /** Each key's count (0 for a key just added). */
  private counts = new Uint32Array(FIRST_CAPACITY);
  private used = 0;
  // The last key hashed: a caller asks `find` and then `add` for one key, hashed once.
  private lastKey: string | undefined;
  private lastHi = 0;
  private lastLo = 0;

  constructor(readonly maxKeys: number) {}

  get size(): number {
    return this.used;
  }

  /** The slot holding `key`, or -1. */
  find(key: string): number {
    this.hash(key);
    const { hi, lo } = this;
    const mask = hi.length - 1;
    for (let slot = this.lastLo & mask; hi[slot] !== 0 || lo[slot] !== 0; slot = (slot + 1) & mask) {
      if (lo[slot] === this.lastLo && hi[slot] === this.lastHi) return slot;
    }
    return -1;
  }

  /** The slot of `key`, added with a count of 0 if it was not held; -1 when it was not and the table holds `maxKeys`. */
  add(key: string): number {
    const found = this.find(key);
    if (found >= 0) return found;
    if (this.used >= this.maxKeys) return -1;
    if (4 * (this.used + 1) > 3 * this.hi.length) this.resize(this.hi.length * 2);
    const slot = this.emptySlotFor(this.lastLo);
    this.hi[slot] = this.lastHi;
    this.lo[slot] = this.lastLo;
    this.counts[slot] = 0;
    this.used++;
    return slot;
  }

  count(slot: number): number {
    return this.counts[slot]!;
  }

  setCount(slot: number, count: number): void {
    this.counts[slot] = count;
  }

  /** Forgets `key`. The keys after it in its run move back, so every key stays reachable from its home slot. */
  delete(key: string): void {
    let hole = this.find(key);
    if (hole < 0) return;
    const { hi, lo, counts } = this;
    const mask = hi.length - 1;
    for (let slot = (hole + 1) & mask; hi[slot] !== 0 || lo[slot] !== 0; slot = (slot + 1) & mask) {
      const home = lo[slot]! & mask;
      // Moves back unless its home lies after the hole (cyclically), up to this slot.
      const stays = hole <= slot ? hole < home && home <= slot : hole < home || home <= slot;
      if (stays) continue;
      hi[hole] = hi[slot]!;
      lo[hole] = lo[slot]!;
      counts[hole] = counts[slot]!;
      hole = slot;
    }
    hi[hole] = 0;
    lo[hole] = 0;
    this.used--;
  }

  /** Forgets every key; a table grown large is let go for a small one. */
  clear(): void {
    if (this.hi.length > FIRST_CAPACITY) {
      this.hi = new Uint32Array(FIRST_CAPACITY);
      this.lo = new Uint32Array(FIRST_CAPACITY);
      this.counts = new Uint32Array(FIRST_CAPACITY);
    } else {
      this.hi.fill(0);
      this.lo.fill(0);
    }
    this.used = 0;
  }

  private hash(key: string): void {
    if (key === this.lastKey) return;
    const [hi, lo] = this.hashOf(key);
    this.lastKey = key;
    this.lastHi = hi;
    // Both halves 0 is the empty slot's mark.
    this.lastLo = hi === 0 && lo === 0 ? 1 : lo;
  }

  private emptySlotFor(lo: number): number {
    const mask = this.hi.length - 1;
    let slot = lo & mask;
    while (this.hi[slot] !== 0 || this.lo[slot] !== 0) slot = (slot + 1) & mask;
    return slot;
  }

  private resize(capacity: number): void {
    const { hi, lo, counts } = this;
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.counts = new Uint32Array(capacity);
    for (let from = 0; from < hi.length; from++) {
      if (hi[from] === 0 && lo[from] === 0) continue;
      const slot = this.emptySlotFor(lo[from]!);
      this.hi[slot] = hi[from]!;
      this.lo[slot] = lo[from]!;
      this.counts[slot] = counts[from]!;
    }
  }
}
