import { CompressThread, type JobSource, type ThreadOptions } from './compress-thread';

/** What starts and stops the thread. */
export interface QuickBrotliOptions extends ThreadOptions {
  /** Answers in one turn that start the thread: fewer are quicker done by the event loop alone. */
  busyTurn?: number;
  /** The thread stops after this long without a turn that busy (its memory goes with it). */
  idleMs?: number;
  /** Failed threads after which none is started again. */
  failuresMax?: number;
}

/**
 * The thread as answers use it: started once a turn has `busyTurn` answers to compress (one answer
 * a turn gains nothing from a second thread), stopped after `idleMs` without such a turn, made again
 * after a failure, given up after `failuresMax` of them.
 */
export class QuickBrotli {
  private thread: CompressThread | undefined;
  private failures = 0;
  private inTurn = 0;
  private turnEnd: NodeJS.Immediate | undefined;
  private busy = false;
  private idle: NodeJS.Timeout | undefined;

  /** Answers handed to a thread so far, whoever compressed them in the end (tests). */
  handedOver = 0;

  constructor(
    private options: QuickBrotliOptions = {},
    private readonly onGiveUp?: () => void,
  ) {}

  /** The running thread (tests). */
  get current(): CompressThread | undefined {
    return this.thread;
  }

  /** Changes how the thread starts and stops (tests: a busy turn of two); returns the options before. */
  tune(options: QuickBrotliOptions): QuickBrotliOptions {
    const before = this.options;
    this.options = { ...before, ...options };
    return before;
  }

  /** See `CompressThread.submit`; undefined also while no thread runs or once it was given up. */
  submit(source: JobSource): Promise<Buffer> | undefined {
    if (this.failures >= (this.options.failuresMax ?? 3)) return undefined;
    this.turnEnd ??= setImmediate(() => {
      this.turnEnd = undefined;
      this.inTurn = 0;
    });
    if (++this.inTurn >= (this.options.busyTurn ?? 8)) {
      this.busy = true;
      if (!this.thread) this.start();
    }
    const soon = this.thread?.submit(source);
    if (soon) this.handedOver++;
    return soon;
  }

  /** Stops the thread now (shutdown, tests). */
  async stop(): Promise<void> {
    clearInterval(this.idle);
    this.idle = undefined;
    const thread = this.thread;
    this.thread = undefined;
    await thread?.stop();
  }

  private start(): void {
    let thread: CompressThread;
    try {
      thread = new CompressThread(this.options, () => this.failed(thread));
    } catch {
      this.failures = this.options.failuresMax ?? 3;
      this.onGiveUp?.();
      return;
    }
    this.thread = thread;
    this.idle ??= setInterval(() => {
      if (this.busy) this.busy = false;
      else void this.stop();
    }, this.options.idleMs ?? 2000);
    this.idle.unref();
  }

  private failed(thread: CompressThread): void {
    if (this.thread !== thread) return;
    this.thread = undefined;
    this.failures++;
    if (this.failures >= (this.options.failuresMax ?? 3)) this.onGiveUp?.();
  }
}
