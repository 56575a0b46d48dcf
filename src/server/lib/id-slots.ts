import { grown } from './typed-arrays';

/** The array by id is at least this long once used (256 KB). */
const DENSE_MIN = 1 << 16;
/** An id past this many times the ids held goes to the Map: the array stays at least a quarter full. */
const DENSE_PER_ID = 4;

/**
 * Slot numbers by whole-number id, as a `Map<number, number>` holds them, in a typed array indexed
 * by id. The servers' ids are serial numbers: a Map of 100,000 of them was a 3.7 MB table on the
 * JavaScript heap, 7.3 MB once deletions had made it double, where this is 0.4 MB outside it. An id
 * too far past the others for the array to stay mostly full is held in a Map instead.
 */
export class IdSlots {
  /** Slot by id; -1: none. */
  private dense = new Int32Array(0);
  private readonly sparse = new Map<number, number>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): number | undefined {
    if (this.inDense(id)) {
      const slot = this.dense[id]!;
      return slot < 0 ? undefined : slot;
    }
    return this.sparse.size === 0 ? undefined : this.sparse.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, slot: number): void {
    if (!(slot >= 0 && slot <= 0x7fffffff && Number.isInteger(slot))) throw new RangeError(`slot ${slot} is not a whole number ≥ 0`);
    if ((id | 0) === id && id >= this.dense.length && id < Math.max(DENSE_MIN, DENSE_PER_ID * (this.count + 1))) {
      this.growTo(Math.max(DENSE_MIN, 2 * id));
    }
    if (this.inDense(id)) {
      if (this.dense[id]! < 0) this.count++;
      this.dense[id] = slot;
      return;
    }
    if (!this.sparse.has(id)) this.count++;
    this.sparse.set(id, slot);
  }

  delete(id: number): boolean {
    if (this.inDense(id)) {
      if (this.dense[id]! < 0) return false;
      this.dense[id] = -1;
      this.count--;
      return true;
    }
    if (!this.sparse.delete(id)) return false;
    this.count--;
    return true;
  }

  clear(): void {
    this.dense = new Int32Array(0);
    this.sparse.clear();
    this.count = 0;
  }

  /** Every slot held, in no particular order. */
  *slots(): IterableIterator<number> {
    const dense = this.dense;
    for (let id = 0; id < dense.length; id++) if (dense[id]! >= 0) yield dense[id]!;
    yield* this.sparse.values();
  }

  /** A whole number the array reaches (ids are below 2^31). */
  private inDense(id: number): boolean {
    return (id | 0) === id && id >= 0 && id < this.dense.length;
  }

  /** Widens the array to `length` ids, moving in the Map's ids that now fit. */
  private growTo(length: number): void {
    this.dense = grown(this.dense, new Int32Array(length).fill(-1));
    for (const [id, slot] of this.sparse) {
      if (!this.inDense(id)) continue;
      this.sparse.delete(id);
      this.dense[id] = slot;
    }
  }
}
