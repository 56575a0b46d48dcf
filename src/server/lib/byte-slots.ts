import { grown } from './typed-arrays';

/** Bytes are appended to chunks of this size (a value past `OWN_CHUNK_BYTES` gets a chunk of its own). */
const CHUNK_BYTES = 1 << 20;

/**
 * A chunk whose live bytes fall under this share is retired. Under votes cards are rewritten again
 * and again: at a half, the card chunks held about 18 MB of dead cards beside ~90 MB of live ones
 * after the benchmark's votes (and up to as many as live); at three quarters the dead bytes stay
 * under a third of the live ones, for about three cards copied per card rewritten instead of one.
 */
const LIVE_SHARE_MIN = 0.75;

/**
 * Values past this size get a chunk of their own: a chunk retired when the next value does not fit
 * moves up to `LIVE_SHARE_MIN` of a chunk into the new one, and that value must still fit after them.
 */
const OWN_CHUNK_BYTES = CHUNK_BYTES * (1 - LIVE_SHARE_MIN);

/**
 * Byte strings kept by slot number outside the JavaScript heap: appended to 1 MB buffers, with each
 * slot's chunk, offset and length in typed arrays. 100,000 cards held as strings were 100,000 heap
 * objects (with their holders, 400,000) that every full collection marked; here they are a few
 * dozen buffers (docs/decisions/041-cards-off-heap.md).
 *
 * Written bytes never change: a new value for a slot is appended elsewhere and the old bytes are
 * left dead. A chunk that falls under three quarters live (and is no longer the one appended to) has
 * its live values moved to the current chunk and is let go, so the dead bytes stay under a third of
 * the live ones plus one chunk. A view handed out by `get` stays valid after its slot changes or
 * moves: the chunk it points into is never written again, and lives as long as the view does.
 */
export class ByteSlots {
  private chunkOf = new Int32Array(0);
  private offsetOf = new Int32Array(0);
  private lengthOf = new Int32Array(0);
  private chunks: Array<Buffer | undefined> = [];
  /** A `DataView` of each chunk, made with it (a view per read would cost more than the read). */
  private views: Array<DataView | undefined> = [];
  private live: number[] = [];
  private readonly spareChunkIds: number[] = [];
  private current = -1;
  private fill = 0;

  constructor(capacity = 1024) {
    this.grow(capacity);
  }

  get capacity(): number {
    return this.chunkOf.length;
  }

  /** Bytes of live values and bytes held in chunks (live, dead and not yet written). */
  get usage(): { live: number; held: number } {
    let live = 0;
    let held = 0;
    for (let c = 0; c < this.chunks.length; c++) {
      live += this.live[c] ?? 0;
      held += this.chunks[c]?.length ?? 0;
    }
    return { live, held };
  }

  /** Makes room for slots below `capacity` (never shrinks). */
  grow(capacity: number): void {
    if (capacity <= this.chunkOf.length) return;
    const widen = (old: Int32Array<ArrayBuffer>, fill: number) => grown(old, new Int32Array(capacity).fill(fill));
    this.chunkOf = widen(this.chunkOf, -1);
    this.offsetOf = widen(this.offsetOf, 0);
    this.lengthOf = widen(this.lengthOf, 0);
  }

  /** Stores `prefix` and then `value` (a string as UTF-8) as the slot's bytes, in place of any it held. */
  put(slot: number, value: string | Uint8Array, prefix?: Uint8Array): void {
    // Past the typed arrays the slot's place would be dropped while its bytes were counted live.
    if (!(slot >= 0 && slot < this.chunkOf.length)) throw new RangeError(`slot ${slot} outside 0..${this.chunkOf.length - 1}`);
    const head = prefix?.length ?? 0;
    const length = head + (typeof value === 'string' ? Buffer.byteLength(value) : value.length);
    const [chunk, offset] = this.reserve(length);
    const target = this.chunks[chunk]!;
    if (prefix) target.set(prefix, offset);
    if (typeof value === 'string') target.write(value, offset + head, length - head, 'utf8');
    else target.set(value, offset + head);
    const [oldChunk, oldLength] = [this.chunkOf[slot]!, this.lengthOf[slot]!];
    // The new place is recorded before the old is released: releasing may move other values.
    this.chunkOf[slot] = chunk;
    this.offsetOf[slot] = offset;
    this.lengthOf[slot] = length;
    this.live[chunk]! += length;
    if (oldChunk >= 0) this.release(oldChunk, oldLength);
  }

  /** A view of the slot's bytes (valid for as long as it is held), or undefined when it holds none. */
  get(slot: number): Buffer | undefined {
    const chunk = this.chunkOf[slot] ?? -1;
    if (chunk < 0) return undefined;
    const offset = this.offsetOf[slot]!;
    return this.chunks[chunk]!.subarray(offset, offset + this.lengthOf[slot]!);
  }

  /**
   * The buffer holding the slot's bytes (never written again where they lie), or undefined when it
   * holds none; with `offsetAt` and `lengthAt`, the place of the bytes without making a view.
   */
  chunkAt(slot: number): Buffer | undefined {
    const chunk = this.chunkOf[slot] ?? -1;
    return chunk < 0 ? undefined : this.chunks[chunk];
  }

  /** A `DataView` of `chunkAt(slot)`, at the same offsets. */
  viewAt(slot: number): DataView | undefined {
    const chunk = this.chunkOf[slot] ?? -1;
    return chunk < 0 ? undefined : this.views[chunk];
  }

  offsetAt(slot: number): number {
    return this.offsetOf[slot]!;
  }

  lengthAt(slot: number): number {
    return this.lengthOf[slot]!;
  }

  has(slot: number): boolean {
    return (this.chunkOf[slot] ?? -1) >= 0;
  }

  /** Forgets the slot's bytes. */
  free(slot: number): void {
    const chunk = this.chunkOf[slot] ?? -1;
    if (chunk < 0) return;
    this.chunkOf[slot] = -1;
    this.release(chunk, this.lengthOf[slot]!);
  }

  /** Forgets every slot's bytes and lets every chunk go. */
  clear(): void {
    this.chunkOf.fill(-1);
    this.chunks = [];
    this.views = [];
    this.live = [];
    this.spareChunkIds.length = 0;
    this.current = -1;
    this.fill = 0;
  }

  /** Where `length` bytes go: the end of the current chunk, a new one, or a chunk of their own. */
  private reserve(length: number): [chunk: number, offset: number] {
    if (length > OWN_CHUNK_BYTES) return [this.newChunk(length), 0];
    if (this.current < 0 || this.fill + length > this.chunks[this.current]!.length) {
      const full = this.current;
      this.current = this.newChunk(CHUNK_BYTES);
      this.fill = 0;
      // The chunk just left may already be under the live share: it had been spared as the current one.
      if (full >= 0 && this.underLiveShare(full)) this.retire(full);
    }
    const offset = this.fill;
    this.fill += length;
    return [this.current, offset];
  }

  private newChunk(bytes: number): number {
    const id = this.spareChunkIds.pop() ?? this.chunks.length;
    const chunk = Buffer.allocUnsafeSlow(bytes);
    this.chunks[id] = chunk;
    this.views[id] = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.live[id] = 0;
    return id;
  }

  /** Counts bytes of a chunk as dead; a chunk under the live share (not the current one) is retired. */
  private release(chunk: number, length: number): void {
    this.live[chunk]! -= length;
    if (chunk !== this.current && this.underLiveShare(chunk)) this.retire(chunk);
  }

  private underLiveShare(chunk: number): boolean {
    return this.live[chunk]! < this.chunks[chunk]!.length * LIVE_SHARE_MIN;
  }

  /** Moves a chunk's live values to the current chunk and lets the chunk go. */
  private retire(chunk: number): void {
    const old = this.chunks[chunk]!;
    let left = this.live[chunk]!;
    // Counted full plus what moves out, so the releases of their old places leave it full and do not
    // retire it again.
    this.live[chunk] = old.length + left;
    for (let slot = 0; left > 0 && slot < this.chunkOf.length; slot++) {
      if (this.chunkOf[slot] !== chunk) continue;
      const offset = this.offsetOf[slot]!;
      const length = this.lengthOf[slot]!;
      left -= length;
      this.put(slot, old.subarray(offset, offset + length));
    }
    this.chunks[chunk] = undefined;
    this.views[chunk] = undefined;
    this.live[chunk] = 0;
    this.spareChunkIds.push(chunk);
  }
}
