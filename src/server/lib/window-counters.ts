import crypto from 'node:crypto';

/** Keys held at first (the table grows as more are counted at once). */
const FIRST_CAPACITY = 1 << 10;

/**
 * Most keys one table counts at once (13 times the plugin's 5,000). Past it (a flood of keys seen
 * once: random usernames at the login, say) a quarter of them are forgotten, those counted least
 * first: a key near its limit is the one worth remembering. Memory stays bounded: 24 bytes a slot,
 * 3 MB at the bound. Windows of up to 49 days (2³² ms) are counted.
 */
export const WINDOW_COUNTERS_MAX = 1 << 16;

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
  private readonly secret = crypto.randomBytes(16).toString('base64');
  private capacity = 0;
  private used = 0;
  private hashHi = new Uint32Array(0);
  private hashLo = new Uint32Array(0);
  /** When the entry's window started; 0 (never a clock's time here): the slot is empty. */
  private startMs = new Float64Array(0);
  private windowMs = new Uint32Array(0);
  private count = new Uint32Array(0);

  constructor(
    private readonly pastMax: PastMax,
    private readonly maxKeys = WINDOW_COUNTERS_MAX,
    private readonly now: () => number = Date.now,
  ) {
    this.allocate(FIRST_CAPACITY);
  }

  /** Keys held (some may have windows that ended and not yet been swept). */
  get size(): number {
    return this.used;
  }

  /** Counts one more for `key` in a window of `timeWindow` ms and answers its state. */
  incr(key: string, timeWindow: number, max: number): WindowCount {
    const nowMs = this.now();
    const [hi, lo] = this.hashOf(key);
    let slot = this.find(hi, lo);
    let ttl = timeWindow;
    if (slot < 0) {
      slot = this.insert(hi, lo, nowMs);
      this.startMs[slot] = nowMs;
      this.count[slot] = 1;
    } else if (this.startMs[slot]! + timeWindow <= nowMs) {
      // The window ended: a new one starts with this request.
      this.count[slot] = 1;
      this.startMs[slot] = nowMs;
    } else {
      // Saturates rather than wraps (a limit's count never comes near 2³²).
      const current = this.count[slot]! === 0xffffffff ? 0xffffffff : ++this.count[slot]!;
      if (this.pastMax.continueExceeding && current > max) {
        this.startMs[slot] = nowMs;
      } else if (this.pastMax.exponentialBackoff && current > max) {
        const backoff = timeWindow * 2 ** (current - max - 1);
        ttl = Number.isSafeInteger(backoff) ? backoff : Number.MAX_SAFE_INTEGER;
        this.startMs[slot] = nowMs;
      } else {
        ttl = timeWindow - (nowMs - this.startMs[slot]!);
      }
    }
    this.windowMs[slot] = Math.min(timeWindow, 0xffffffff);
    return { current: this.count[slot]!, ttl };
  }

  /** `key`'s state without counting (0 when it has no open window). */
  read(key: string, timeWindow: number): WindowCount {
    const nowMs = this.now();
    const [hi, lo] = this.hashOf(key);
    const slot = this.find(hi, lo);
    if (slot < 0 || this.startMs[slot]! + timeWindow <= nowMs) return { current: 0, ttl: 0 };
    return { current: this.count[slot]!, ttl: timeWindow - (nowMs - this.startMs[slot]!) };
  }

  /**
   * The digest as a one-byte string ('binary' is latin1), read 8 bytes of it: as a `Buffer` each request's few hashes
   * were each a small allocation of malloc's besides an object.
   */
  private hashOf(key: string): [number, number] {
    const digest = crypto.hash('sha1', this.secret + key, 'binary');
    const at = (i: number) => digest.charCodeAt(i);
    return [(at(0) | (at(1) << 8) | (at(2) << 16) | (at(3) << 24)) >>> 0, (at(4) | (at(5) << 8) | (at(6) << 16) | (at(7) << 24)) >>> 0];
  }

  private find(hi: number, lo: number): number {
    const mask = this.capacity - 1;
    for (let slot = lo & mask; this.startMs[slot] !== 0; slot = (slot + 1) & mask) {
      if (this.hashLo[slot] === lo && this.hashHi[slot] === hi) return slot;
    }
    return -1;
  }

  /** A slot for a key not held, making the table again first when it is three quarters full or at the bound. */
  private insert(hi: number, lo: number, nowMs: number): number {
    if (4 * (this.used + 1) > 3 * this.capacity || this.used >= this.maxKeys) this.rebuild(nowMs);
    const slot = this.emptySlotFor(lo);
    this.hashHi[slot] = hi;
    this.hashLo[slot] = lo;
    this.used++;
    return slot;
  }

  private emptySlotFor(lo: number): number {
    const mask = this.capacity - 1;
    let slot = lo & mask;
    while (this.startMs[slot] !== 0) slot = (slot + 1) & mask;
    return slot;
  }

  /**
   * The table again with only the keys whose windows are open, filling at most 3/8 of it; past
   * `maxKeys`, without the quarter counted least (the oldest first among equal counts).
   */
  private rebuild(nowMs: number): void {
    let open: number[] = [];
    for (let slot = 0; slot < this.capacity; slot++) {
      const start = this.startMs[slot]!;
      if (start !== 0 && start + this.windowMs[slot]! > nowMs) open.push(slot);
    }
    if (open.length >= this.maxKeys) {
      const { count, startMs } = this;
      open.sort((a, b) => count[b]! - count[a]! || startMs[b]! - startMs[a]!);
      // One fewer than three quarters, so they and the key being added fill 3/8 of a table of the
      // bound's size, not of twice it.
      open = open.slice(0, Math.floor((this.maxKeys * 3) / 4) - 1);
    }
    const [hashHi, hashLo, startMs, windowMs, count] = [this.hashHi, this.hashLo, this.startMs, this.windowMs, this.count];
    let capacity = FIRST_CAPACITY;
    while (3 * capacity < 8 * (open.length + 1)) capacity *= 2;
    this.allocate(capacity);
    for (const from of open) {
      const slot = this.emptySlotFor(hashLo[from]!);
      this.hashHi[slot] = hashHi[from]!;
      this.hashLo[slot] = hashLo[from]!;
      this.startMs[slot] = startMs[from]!;
      this.windowMs[slot] = windowMs[from]!;
      this.count[slot] = count[from]!;
    }
    this.used = open.length;
  }

  private allocate(capacity: number): void {
    this.capacity = capacity;
    this.hashHi = new Uint32Array(capacity);
    this.hashLo = new Uint32Array(capacity);
    this.startMs = new Float64Array(capacity);
    this.windowMs = new Uint32Array(capacity);
    this.count = new Uint32Array(capacity);
  }
}
