import { keyHasher } from './key-hash';

/**
 * Slots at first (the table doubles as more keys are counted at once). Small: every route with a
 * limit of its own has a table, and most of the ~80 only ever count a few keys; at 1,024 slots the
 * idle ones held ~2 MB between them.
 */
const FIRST_CAPACITY = 1 << 6;

/**
 * Most keys one table counts at once (three times the plugin's 5,000). Past it (a flood of keys
 * seen once: a new address with every vote, random usernames at the login) a quarter of them are
 * forgotten, those counted least first: a key near its limit is the one worth remembering. Memory
 * stays bounded: 24 bytes a slot, at the bound two tables of 32,768 slots (1.5 MB). Windows of up
 * to 49 days (2³² ms) are counted.
 */
export const WINDOW_COUNTERS_MAX = 1 << 14;

/** Counts at or past this fall in one bucket when choosing what to forget at the bound. */
const COUNT_BUCKETS = 256;

/** One table's slots. */
class Slots {
  readonly hashHi: Uint32Array;
  readonly hashLo: Uint32Array;
  /** When the entry's window started; 0 (never a clock's time here): the slot is empty. */
  readonly startMs: Float64Array;
  readonly windowMs: Uint32Array;
  readonly count: Uint32Array;

  constructor(readonly capacity: number) {
    this.hashHi = new Uint32Array(capacity);
    this.hashLo = new Uint32Array(capacity);
    this.startMs = new Float64Array(capacity);
    this.windowMs = new Uint32Array(capacity);
    this.count = new Uint32Array(capacity);
  }

  isOpen(slot: number, nowMs: number): boolean {
    const start = this.startMs[slot]!;
    return start !== 0 && start + this.windowMs[slot]! > nowMs;
  }

  emptySlotFor(lo: number): number {
    const mask = this.capacity - 1;
    let slot = lo & mask;
    while (this.startMs[slot] !== 0) slot = (slot + 1) & mask;
    return slot;
  }

  /** Copies slot `from` of `other` into this table. */
  copy(other: Slots, from: number): void {
    const slot = this.emptySlotFor(other.hashLo[from]!);
    this.hashHi[slot] = other.hashHi[from]!;
    this.hashLo[slot] = other.hashLo[from]!;
    this.startMs[slot] = other.startMs[from]!;
    this.windowMs[slot] = other.windowMs[from]!;
    this.count[slot] = other.count[from]!;
  }
}

/** One key's state, as @fastify/rate-limit's stores answer it. */
export interface WindowCount {
  current: number;
  ttl: number;
}

/** How a count past `max` moves its window (the plugin's `continueExceeding` and `exponentialBackoff`). */
export interface PastMax {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
}

/**
 * Fixed-window counters by key, exact for every key until its window ends, held in typed arrays: no
 * object per key. @fastify/rate-limit's memory store kept each key as four objects in an LRU of
 * 5,000: 10,000 voters were ~6 MB of the JavaScript heap that every full collection marked, and a
 * key pushed out by 5,000 newer ones started again from zero, so an hourly limit stopped counting
 * once a few hundred people a second voted (docs/decisions/080-rate-limits-counted-exactly.md).
 *
 * A key is held as 64 bits of a SHA-1 of a secret of this process and the key: two keys share a
 * count only by a chance of about n²/2⁶⁵, and no one who does not know the secret can make two
 * collide. Open addressing with linear probing; no entry is removed on its own: when the table is
 * three quarters full it is made again with only the keys whose windows are still open.
 *
 * The window arithmetic is the plugin's `LocalStore`'s, branch for branch, so limits behave the
 * same. Its `ttl` is set by every branch before it is answered, so it is not held.
 */
export class WindowCounters {
  private readonly hashOf = keyHasher();
  private slots = new Slots(FIRST_CAPACITY);
  /**
   * The table before the last remaking, kept when it was the same size, to be written over by the
   * next: at the bound a table is remade every few thousand new keys, and each one let go stayed
   * mapped until a full collection.
   */
  private spare: Slots | undefined;
  private used = 0;
  private readonly histogram = new Uint32Array(COUNT_BUCKETS);

  constructor(
    private readonly pastMax: PastMax,
    private readonly maxKeys = WINDOW_COUNTERS_MAX,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keys held (some may have windows that ended and not yet been swept). */
  get size(): number {
    return this.used;
  }

  /** Counts one more for `key` in a window of `timeWindow` ms and answers its state. */
  incr(key: string, timeWindow: number, max: number): WindowCount {
    const nowMs = this.now();
    const [hi, lo] = this.hashOf(key);
    let slot = this.find(hi, lo);
    // A new key may remake the table first: the slots are read after the insert.
    if (slot < 0) slot = this.insert(hi, lo, nowMs);
    const t = this.slots;
    let ttl = timeWindow;
    if (t.startMs[slot] === 0 || t.startMs[slot]! + timeWindow <= nowMs) {
      // A new key, or its window ended: a window starts with this request.
      t.count[slot] = 1;
      t.startMs[slot] = nowMs;
    } else {
      // Saturates rather than wraps (a limit's count never comes near 2³²).
      const current = t.count[slot]! === 0xffffffff ? 0xffffffff : ++t.count[slot]!;
      if (this.pastMax.continueExceeding && current > max) {
        t.startMs[slot] = nowMs;
      } else if (this.pastMax.exponentialBackoff && current > max) {
        const backoff = timeWindow * 2 ** (current - max - 1);
        ttl = Number.isSafeInteger(backoff) ? backoff : Number.MAX_SAFE_INTEGER;
        t.startMs[slot] = nowMs;
      } else {
        ttl = timeWindow - (nowMs - t.startMs[slot]!);
      }
    }
    t.windowMs[slot] = Math.min(timeWindow, 0xffffffff);
    return { current: t.count[slot]!, ttl };
  }

  /** `key`'s state without counting (0 when it has no open window). */
  read(key: string, timeWindow: number): WindowCount {
    const nowMs = this.now();
    const [hi, lo] = this.hashOf(key);
    const slot = this.find(hi, lo);
    const t = this.slots;
    if (slot < 0 || t.startMs[slot]! + timeWindow <= nowMs) return { current: 0, ttl: 0 };
    return { current: t.count[slot]!, ttl: timeWindow - (nowMs - t.startMs[slot]!) };
  }

  private find(hi: number, lo: number): number {
    const t = this.slots;
    const mask = t.capacity - 1;
    for (let slot = lo & mask; t.startMs[slot] !== 0; slot = (slot + 1) & mask) {
      if (t.hashLo[slot] === lo && t.hashHi[slot] === hi) return slot;
    }
    return -1;
  }

  /** A slot for a key not held, making the table again first when it is three quarters full or at the bound. */
  private insert(hi: number, lo: number, nowMs: number): number {
    if (4 * (this.used + 1) > 3 * this.slots.capacity || this.used >= this.maxKeys) this.remake(nowMs);
    const t = this.slots;
    const slot = t.emptySlotFor(lo);
    t.hashHi[slot] = hi;
    t.hashLo[slot] = lo;
    this.used++;
    return slot;
  }

  /**
   * The table again with only the keys whose windows are open, filling at most 3/8 of it. Past
   * `maxKeys`, without the quarter counted least: a histogram of the counts gives the count below
   * which all go; of those with exactly that count, the first found stay (their order is the
   * hashes', which no one can steer), up to the room left. No sort: at the bound this runs every
   * few thousand new keys.
   */
  private remake(nowMs: number): void {
    const old = this.slots;
    const histogram = this.histogram.fill(0);
    let open = 0;
    for (let slot = 0; slot < old.capacity; slot++) {
      if (!old.isOpen(slot, nowMs)) continue;
      open++;
      histogram[Math.min(old.count[slot]!, COUNT_BUCKETS - 1)]!++;
    }
    // Counts in buckets under `least` go; of bucket `least`, `room` stay.
    let least = 0;
    let room = Infinity;
    let kept = open;
    if (open >= this.maxKeys) {
      // One fewer than three quarters, so they and the key being added fill 3/8 of a table of
      // the bound's size, not of twice it.
      kept = Math.floor((this.maxKeys * 3) / 4) - 1;
      let above = 0;
      for (let bucket = COUNT_BUCKETS - 1; bucket >= 0; bucket--) {
        if (above + histogram[bucket]! > kept) {
          least = bucket;
          room = kept - above;
          break;
        }
        above += histogram[bucket]!;
      }
    }
    let capacity = FIRST_CAPACITY;
    while (3 * capacity < 8 * (kept + 1)) capacity *= 2;
    const fresh = this.spare?.capacity === capacity ? this.spare : new Slots(capacity);
    if (fresh === this.spare) fresh.startMs.fill(0);
    for (let slot = 0; slot < old.capacity; slot++) {
      if (!old.isOpen(slot, nowMs)) continue;
      const bucket = Math.min(old.count[slot]!, COUNT_BUCKETS - 1);
      if (bucket < least) continue;
      if (bucket === least) {
        if (room === 0) continue;
        room--;
      }
      fresh.copy(old, slot);
    }
    this.slots = fresh;
    this.spare = old.capacity === capacity ? old : undefined;
    this.used = Math.min(open, kept);
  }
}
