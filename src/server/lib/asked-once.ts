/**
 * Remembers keys asked for once lately, in a fixed table of their 32-bit hashes: asking for a key
 * again while it is remembered answers true (and forgets it), the first ask answers false.
 *
 * A `Set` of the keys did the same, but every uncached search added a key string that lived on
 * until thousands of later ones pushed it out: each went to V8's old generation, and with the
 * set's table rebuilt as keys came and went, that was a fifth of what the search mix moved there
 * (docs/decisions/049-search-garbage.md). The table allocates nothing per key.
 *
 * Each key has one slot (its hash's low bits), so a key is forgotten when a later one takes its
 * slot: with `slots` at least a few times the keys worth remembering, most are kept as long as
 * they would have been. Two keys with the same hash look alike: the second is taken for a second
 * ask, which at worst keeps one answer that is asked for once.
 */
export class AskedOnce {
  private readonly hashes: Uint32Array;
  private readonly mask: number;

  /** `slots`: rounded up to a power of two. */
  constructor(slots: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(2, slots)));
    this.hashes = new Uint32Array(size);
    this.mask = size - 1;
  }

  /** Whether `key` was asked for lately; remembers it otherwise. */
  askedBefore(key: string): boolean {
    // 0 marks an empty slot, so no key hashes to it.
    const hash = hashOf(key) || 1;
    const slot = hash & this.mask;
    if (this.hashes[slot] === hash) {
      this.hashes[slot] = 0;
      return true;
    }
    this.hashes[slot] = hash;
    return false;
  }

  /** Remembers `key` as asked once: its next ask answers true. */
  remember(key: string): void {
    const hash = hashOf(key) || 1;
    this.hashes[hash & this.mask] = hash;
  }
}

/**
 * 32-bit FNV-1a over the string's UTF-16 code units, then MurmurHash3's finaliser: keys that
 * differ only in their last characters (page offsets) otherwise crowd into a few slots.
 */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}
