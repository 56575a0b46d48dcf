import { grown } from './typed-arrays';

/** In `prev`: the slot is not in the order. */
const OUT = -2;
/** In `prev` and `next`: no slot there (the ends). */
const NONE = -1;

/**
 * Slot numbers in an order where any slot moves to the end or leaves in constant time: a doubly
 * linked list in typed arrays. What a `Map` kept in insertion order gave the card cache (oldest
 * read first), without a hash table on the JavaScript heap whose deleted entries made it double.
 */
export class SlotOrder {
  private prev = new Int32Array(0);
  private next = new Int32Array(0);
  private head = NONE;
  private tail = NONE;

  constructor(capacity = 1024) {
    this.grow(capacity);
  }

  /** Makes room for slots below `capacity` (never shrinks). */
  grow(capacity: number): void {
    if (capacity <= this.prev.length) return;
    this.prev = grown(this.prev, new Int32Array(capacity).fill(OUT));
    this.next = grown(this.next, new Int32Array(capacity).fill(NONE));
  }

  has(slot: number): boolean {
    return slot >= 0 && slot < this.prev.length && this.prev[slot] !== OUT;
  }

  /** The first slot, or -1 when empty. */
  first(): number {
    return this.head;
  }

  /** The slot after `slot`, or -1 at the end. */
  after(slot: number): number {
    return this.next[slot]!;
  }

  /** Puts a slot at the end: added if it was not in the order, moved if it was. */
  toEnd(slot: number): void {
    if (!(slot >= 0 && slot < this.prev.length)) throw new RangeError(`slot ${slot} outside 0..${this.prev.length - 1}`);
    if (this.tail === slot) return;
    if (this.prev[slot] !== OUT) this.unlink(slot);
    this.prev[slot] = this.tail;
    this.next[slot] = NONE;
    if (this.tail === NONE) this.head = slot;
    else this.next[this.tail] = slot;
    this.tail = slot;
  }

  /** Takes a slot out of the order (nothing when it is not in it). */
  remove(slot: number): void {
    if (this.has(slot)) this.unlink(slot);
  }

  clear(): void {
    this.prev.fill(OUT);
    this.next.fill(NONE);
    this.head = NONE;
    this.tail = NONE;
  }

  private unlink(slot: number): void {
    const before = this.prev[slot]!;
    const after = this.next[slot]!;
    if (before === NONE) this.head = after;
    else this.next[before] = after;
    if (after === NONE) this.tail = before;
    else this.prev[after] = before;
    this.prev[slot] = OUT;
    this.next[slot] = NONE;
  }
}
