import { clearBit, hasBit, setBit } from './bitset';
import { grown } from '../../lib/typed-arrays';

/**
 * One bitset of slots per filter (about 60): "has every chosen filter" is the AND of theirs. A
 * slot's filters are its bits in them, no array per server (100,000 of those were 12 MB of heap
 * and as many objects to mark).
 */
export class FilterBitsets {
  readonly bits = new Map<number, Uint32Array>();
  private words = 0;

  /** The filter's bitset, undefined when no server ever had it. */
  get(id: number): Uint32Array | undefined {
    return this.bits.get(id);
  }

  /**
   * Gives the slot exactly these filters; whether that changed anything (a vote leaves a server's
   * filters as they were, and what matches a search with them then stays as it was).
   */
  assign(slot: number, filterIds: readonly number[]): boolean {
    if (this.hasExactly(slot, filterIds)) return false;
    this.clear(slot);
    for (const id of filterIds) {
      let bits = this.bits.get(id);
      if (!bits) this.bits.set(id, (bits = new Uint32Array(this.words)));
      setBit(bits, slot);
    }
    return true;
  }

  /** Takes a slot out of every filter's bitset. */
  clear(slot: number): void {
    for (const bits of this.bits.values()) clearBit(bits, slot);
  }

  /** Makes room for `words` 32-slot words in every bitset. */
  grow(words: number): void {
    this.words = words;
    for (const [id, bits] of this.bits) this.bits.set(id, grown(bits, new Uint32Array(words)));
  }

  private hasExactly(slot: number, filterIds: readonly number[]): boolean {
    for (const id of filterIds) {
      const bits = this.bits.get(id);
      if (!bits || !hasBit(bits, slot)) return false;
    }
    let held = 0;
    for (const bits of this.bits.values()) if (hasBit(bits, slot)) held++;
    return held === (filterIds.length > 1 ? new Set(filterIds).size : filterIds.length);
  }
}
