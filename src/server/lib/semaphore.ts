/** Thrown by `Semaphore.run` when every slot is busy and the waiting line is full. */
export class SemaphoreFullError extends Error {
  constructor() {
    super('too many tasks waiting');
    this.name = 'SemaphoreFullError';
  }
}

/**
 * Bounds how many async tasks run at once (argon2 hashing and image decoding are CPU-bound).
 * With `maxWaiting`, a task that would wait behind that many others is refused at once instead,
 * so a burst cannot pile up unbounded work and memory.
 */
export class Semaphore {
  private running = 0;
  private most = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting = Infinity,
  ) {}

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** The most tasks that ever ran at once (tests check the bound held). */
  get peak(): number {
    return this.most;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw new SemaphoreFullError();
      // The slot is handed over by the task that ends (it stays counted), so no newcomer can take it
      // between that task's end and this one's start.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    this.most = Math.max(this.most, this.running);
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
