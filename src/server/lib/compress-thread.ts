import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import { THREAD_SOURCE } from './compress-thread.source';

export { THREAD_SOURCE } from './compress-thread.source';

/**
 * Brotli for answers made for one search, on a thread beside the event loop
 * (docs/decisions/050-compression-thread.md). During a turn the event loop writes each answer
 * into shared memory and publishes it; the thread takes the jobs it reaches first. At the end of
 * the turn the event loop compresses the jobs the thread has not reached itself and waits for
 * the one it is on, so every answer still goes out in the turn its request came in (an answer
 * that waited for a message from the thread kept its request alive into later turns, and V8
 * moved those to its old generation).
 *
 * Nothing here is needed for correctness: a job that cannot be placed (no free slot, too big, the
 * thread gone) is left to the caller, who compresses it as before, and the bytes are the same.
 */

/** Brotli quality 0, as the event loop compresses an answer made for one search (cached-body.ts). */
export const QUICK_BROTLI_PARAMS: Readonly<Record<number, number>> = Object.freeze({
  [zlib.constants.BROTLI_PARAM_QUALITY]: 0,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
});

/**
 * Output chunks under 4 KB come from Node's shared buffer pool. At the default 16 KB, every answer
 * kept a 16 KB buffer of its own alive for its 3 KB of output, and those outlived young-generation
 * collections: the old generation's budget ran out every ~200 ms under the search mix
 * (docs/decisions/044-request-buffers.md).
 */
export const OUTPUT_CHUNK = 4095;

/**
 * An answer made for one search, on either thread: the same options every time, made once
 * (building them per answer showed in its profile). No size hint: at quality 0 it changed neither
 * the bytes nor the time.
 */
export const QUICK_BROTLI: zlib.BrotliOptions = Object.freeze({ chunkSize: OUTPUT_CHUNK, params: QUICK_BROTLI_PARAMS });

/** A slot's states, in the control array. */
const FREE = 0;
const PENDING = 1;
const TAKEN = 2;
const DONE = 3;
// 4, FAILED: set by the thread only, when it could not compress a job (or the output did not fit
// its room); the event loop then compresses it, as it does any job not DONE.
/** The event loop stopped waiting for it; the thread frees it when it finishes. */
const ABANDONED = 5;
/** Compressed by the event loop itself at the end of the turn. */
const MAIN = 6;

/** Control words before the slots' states: jobs published so far, whether the thread sleeps, stop. */
const PUBLISHED = 0;
const SLEEPING = 1;
const STOP = 2;
const HEAD = 4;

export interface ThreadOptions {
  /** Jobs one turn can hand over; more are compressed by the event loop as they come. */
  slots?: number;
  /** The largest answer handed over (bytes of JSON). */
  inputBytes?: number;
  /** Room for its compressed bytes; a job whose output is larger is done by the event loop. */
  outputBytes?: number;
  /** How long the end of a turn waits for the job the thread is on before doing it itself. */
  waitMs?: number;
  /** The thread's code (tests: a thread that fails, or stops answering). */
  source?: string;
}

/** Bytes a job's JSON is written into: the caller's `writeTo` fills exactly `byteLength` of them. */
export interface JobSource {
  readonly byteLength: number;
  writeTo(out: Buffer): void;
}

interface Job {
  slot: number;
  resolve: (bytes: Buffer) => void;
  reject: (err: unknown) => void;
}

/**
 * One thread and the shared memory it works in. When the thread fails it is not started again:
 * the owner (`QuickBrotli`) makes a new one.
 */
export class CompressThread {
  private readonly control: Int32Array;
  private readonly bytes: Buffer;
  /**
   * Where a job's JSON is written before one copy into the shared memory: a list answer is dozens
   * of small copies (a card each, its rank), and each copy into a SharedArrayBuffer cost about three
   * times one into plain memory (docs/decisions/050-compression-thread.md, last update).
   */
  private readonly staging: Buffer;
  private readonly slots: number;
  private readonly inputBytes: number;
  private readonly outputBytes: number;
  private readonly stride: number;
  private readonly waitMs: number;
  private readonly worker: Worker;
  /** Marks the thread failed (it exited, threw, or holds jobs it never finishes) and tells the owner. */
  private readonly gone: () => void;
  private jobs: Job[] = [];
  private flushing: NodeJS.Immediate | undefined;
  /** The slot the next job tries first. */
  private cursor = 0;
  /** False once the thread exited or failed: nothing more is handed over, nothing is waited for. */
  alive = true;
  /** Jobs the thread did (for tests and the decision record's numbers). */
  byThread = 0;
  /** Jobs the event loop did at the end of a turn. */
  byLoop = 0;

  constructor(options: ThreadOptions = {}, onExit?: () => void) {
    this.slots = options.slots ?? 64;
    this.inputBytes = options.inputBytes ?? 48 * 1024;
    this.outputBytes = options.outputBytes ?? 16 * 1024;
    this.stride = this.inputBytes + this.outputBytes;
    this.waitMs = options.waitMs ?? 0.5;
    const control = new SharedArrayBuffer(4 * (HEAD + 3 * this.slots));
    const data = new SharedArrayBuffer(this.slots * this.stride);
    this.control = new Int32Array(control);
    this.bytes = Buffer.from(data);
    this.staging = Buffer.allocUnsafeSlow(this.inputBytes);
    this.worker = new Worker(options.source ?? THREAD_SOURCE, {
      eval: true,
      workerData: {
        control,
        data,
        slots: this.slots,
        inputBytes: this.inputBytes,
        outputBytes: this.outputBytes,
        options: QUICK_BROTLI,
      },
      // It holds almost nothing of its own: a small heap keeps its memory small.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
      stdout: false,
      stderr: false,
    });
    // Never what keeps the process alive.
    this.worker.unref();
    this.gone = () => {
      if (!this.alive) return;
      this.alive = false;
      onExit?.();
    };
    this.worker.once('error', this.gone);
    this.worker.once('exit', this.gone);
  }

  /**
   * Hands `source` to the thread: resolves with its brotli bytes at the end of this turn, or
   * undefined at once when it cannot be taken (the caller compresses it itself).
   */
  submit(source: JobSource): Promise<Buffer> | undefined {
    if (!this.alive || source.byteLength > this.inputBytes || source.byteLength === 0) return undefined;
    const slot = this.freeSlot();
    if (slot < 0) return undefined;
    const at = slot * this.stride;
    const json = this.staging.subarray(0, source.byteLength);
    source.writeTo(json);
    this.bytes.set(json, at);
    Atomics.store(this.control, inputLengthOf(slot), source.byteLength);
    Atomics.store(this.control, stateOf(slot), PENDING);
    Atomics.add(this.control, PUBLISHED, 1);
    // A sleeping thread is woken; a busy one sees the count when it looks again.
    if (Atomics.load(this.control, SLEEPING) === 1) Atomics.notify(this.control, PUBLISHED);
    this.flushing ??= setImmediate(() => this.flush());
    return new Promise<Buffer>((resolve, reject) => this.jobs.push({ slot, resolve, reject }));
  }

  /** Stops the thread; jobs of this turn are still answered (by the event loop). */
  async stop(): Promise<void> {
    this.alive = false;
    Atomics.store(this.control, STOP, 1);
    Atomics.notify(this.control, PUBLISHED);
    await this.worker.terminate();
  }

  private freeSlot(): number {
    for (let i = 0; i < this.slots; i++) {
      const slot = (this.cursor + i) % this.slots;
      if (Atomics.load(this.control, stateOf(slot)) === FREE) {
        this.cursor = (slot + 1) % this.slots;
        return slot;
      }
    }
    return -1;
  }

  /** The end of the turn: what the thread has not taken is done here, then every job is answered. */
  private flush(): void {
    this.flushing = undefined;
    const jobs = this.jobs;
    this.jobs = [];
    const answers: (Buffer | Error)[] = new Array(jobs.length);
    try {
      this.answer(jobs, answers);
    } catch (err) {
      // Whatever failed, no request is left waiting: the ones without bytes get the error.
      for (let j = 0; j < jobs.length; j++) answers[j] ??= err instanceof Error ? err : new Error(String(err));
    }
    // Every slot but an abandoned one is free: the next turn fills them from the first, in the
    // order the thread takes them.
    this.cursor = 0;
    for (let j = 0; j < jobs.length; j++) {
      const answer = answers[j]!;
      if (answer instanceof Error) jobs[j]!.reject(answer);
      else jobs[j]!.resolve(answer);
    }
  }

  private answer(jobs: readonly Job[], answers: (Buffer | Error)[]): void {
    // From the last job down, while the thread works from the first up.
    for (let j = jobs.length - 1; j >= 0; j--) {
      const { slot } = jobs[j]!;
      if (Atomics.compareExchange(this.control, stateOf(slot), PENDING, MAIN) !== PENDING) continue;
      answers[j] = this.compressHere(slot);
      Atomics.store(this.control, stateOf(slot), FREE);
    }
    let abandoned = false;
    for (let j = 0; j < jobs.length; j++) {
      if (answers[j]) continue;
      const { slot } = jobs[j]!;
      let state = Atomics.load(this.control, stateOf(slot));
      if (state === TAKEN && this.alive) {
        Atomics.wait(this.control, stateOf(slot), TAKEN, this.waitMs);
        state = Atomics.load(this.control, stateOf(slot));
      }
      if (state === TAKEN) {
        // Too long (the thread lost its core) or gone: done here; a thread still on it frees the slot.
        const was = Atomics.compareExchange(this.control, stateOf(slot), TAKEN, ABANDONED);
        state = was === TAKEN ? ABANDONED : was;
        abandoned ||= state === ABANDONED;
      }
      if (state === DONE) {
        const at = slot * this.stride + this.inputBytes;
        answers[j] = Buffer.from(this.bytes.subarray(at, at + Atomics.load(this.control, outputLengthOf(slot))));
        this.byThread++;
      } else {
        answers[j] = this.compressHere(slot);
      }
      if (state !== ABANDONED) Atomics.store(this.control, stateOf(slot), FREE);
    }
    if (abandoned) this.retireIfStuck();
  }

  /**
   * A thread that lost its core for a while finishes its job later and frees the slot. One that
   * holds several slots it never lets go is stuck: it is stopped and counts as failed.
   */
  private retireIfStuck(): void {
    let held = 0;
    for (let slot = 0; slot < this.slots; slot++) if (Atomics.load(this.control, stateOf(slot)) === ABANDONED) held++;
    if (held < STUCK_SLOTS) return;
    this.gone();
    void this.worker.terminate();
  }

  /** A job compressed by the event loop, from the bytes in its slot (the slot's state is the caller's). */
  private compressHere(slot: number): Buffer | Error {
    this.byLoop++;
    const at = slot * this.stride;
    const input = this.bytes.subarray(at, at + Atomics.load(this.control, inputLengthOf(slot)));
    try {
      return zlib.brotliCompressSync(input, QUICK_BROTLI);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }
}

/** Abandoned slots a thread still holds at the end of a turn that mark it stuck. */
const STUCK_SLOTS = 4;

const stateOf = (slot: number) => HEAD + 3 * slot;
const inputLengthOf = (slot: number) => HEAD + 3 * slot + 1;
const outputLengthOf = (slot: number) => HEAD + 3 * slot + 2;
