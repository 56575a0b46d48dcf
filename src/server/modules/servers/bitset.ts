/** Sets of slots as bits in a Uint32Array (slot n is bit n % 32 of word n / 32). */

/** Bits set in a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export const hasBit = (bits: Uint32Array, slot: number) => (bits[slot >>> 5]! & (1 << (slot & 31))) !== 0;

export function setBit(bits: Uint32Array, slot: number, on = true): void {
  if (on) bits[slot >>> 5]! |= 1 << (slot & 31);
  else bits[slot >>> 5]! &= ~(1 << (slot & 31));
}

export function clearBit(bits: Uint32Array | undefined, slot: number): void {
  if (bits) setBit(bits, slot, false);
}

/** How many bits are set. */
export function countBits(bits: Uint32Array): number {
  let total = 0;
  for (let w = 0; w < bits.length; w++) if (bits[w]) total += popcount(bits[w]!);
  return total;
}

/** The slots whose bits are set, in slot order. */
export function slotsOf(bits: Uint32Array, total: number): number[] {
  const out: number[] = new Array(total);
  let n = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word) {
      const low = word & -word;
      out[n++] = (w << 5) + 31 - Math.clz32(low);
      word ^= low;
    }
  }
  return out;
}

/**
 * Writes `base` AND every one of `sources` into `out` and returns how many bits that leaves: one
 * pass for the usual one or two sources (a word, two filters), counting as it goes.
 */
export function andInto(out: Uint32Array, base: Uint32Array, sources: readonly Uint32Array[]): number {
  let total = 0;
  const [first, second] = sources;
  if (sources.length === 1) {
    for (let w = 0; w < out.length; w++) {
      const word = base[w]! & first![w]!;
      out[w] = word;
      if (word !== 0) total += popcount(word);
    }
    return total;
  }
  if (sources.length === 2) {
    for (let w = 0; w < out.length; w++) {
      const word = base[w]! & first![w]! & second![w]!;
      out[w] = word;
      if (word !== 0) total += popcount(word);
    }
    return total;
  }
  out.set(base);
  for (const source of sources) for (let w = 0; w < out.length; w++) out[w]! &= source[w]!;
  return countBits(out);
}
