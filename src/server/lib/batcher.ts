/**
 * Group commit for the database: calls that arrive together, or while earlier ones are in flight,
 * go into one call of `run`. A call goes out after the current turn of the event loop (the
 * requests whose bytes arrived in it go with it; no timer, no added wait when idle); under load,
 * each batch carries everything that queued behind the one before, so one statement and one
 * commit serve many requests (docs/decisions/038-batched-writes.md).
 *
 * Each caller still gets its own answer and only after its own statement ran, so a write is
 * acknowledged only once it is committed. Items sharing a key never run at the same time (a
 * statement's rows cannot see each other: two votes by one user on one server must meet the
 * unique key one after the other); a later one waits for a later batch, in order.
 */
export interface BatcherOptions<I> {
  /** Most items in one call (bounds one statement's size). */
  maxBatch?: number;
  /** Calls of `run` at once; 1 keeps one instance's batches from locking rows against each other. */
  maxInFlight?: number;
  /** Keys no two items of one batch may share. */
  keys?: (item: I) => readonly string[];
  /**
   * Whether a failed batch's items are run again one by one: true for an error one item's data
   * can cause (then only that item fails). Otherwise (no database, a timeout, a result that does
   * not fit) every item of the batch fails with the error: trying each again would only wait that
   * much longer, and a write may have been committed before the failure. Default: never.
   */
  splitOn?: (error: unknown) => boolean;
  /**
   * Gathering under load (off unless set): when items arrived while the last call ran, a batch of
   * fewer than `items` waits until `ms` after the last call began, so a steady stream of writes
   * goes as a few larger statements instead of many of one or two (each costs the app's thread a
   * round trip and PostgreSQL a commit; docs/decisions/074-votes-gathered-under-load.md). A call
   * after a quiet spell, a caller who waits for each answer before the next, and a batch of
   * `items` or more go at once.
   */
  gather?: { ms: number; items: number };
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export interface Batcher<I, O> {
  /** Runs `item` in the next batch; answers its own result. */
  add(item: I): Promise<O>;
  /** Items waiting for a batch (tests). */
  readonly waiting: number;
}

/**
 * `run` answers one result per item, in the items' order. When a batch of several fails with an
 * error `splitOn` accepts, each of its items is run again alone, so one bad item fails only its
 * own caller.
 */
export function batcher<I, O>(run: (items: I[]) => Promise<O[]>, options: BatcherOptions<I> = {}): Batcher<I, O> {
  const maxBatch = options.maxBatch ?? 100;
  const maxInFlight = options.maxInFlight ?? 1;
  const queue: Array<Waiting<I, O>> = [];
  let inFlight = 0;
  let scheduled = false;
  const gather = options.gather;
  let lastStart = -Infinity;
  // Whether items arrived while the last call ran: callers at once, worth gathering for.
  let crowded = false;
  let gathering: ReturnType<typeof setTimeout> | undefined;
  // Keys of the batches running now: an item sharing one waits for them to end.
  const busy = new Map<string, number>();

  const settle = async (batch: Array<Waiting<I, O>>) => {
    try {
      const results = await run(batch.map((w) => w.item));
      if (results.length !== batch.length) throw new Error(`batch answered ${results.length} results for ${batch.length} items`);
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1 || !options.splitOn?.(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      // Alone, one after the other: the item that broke the batch fails by itself.
      for (const w of batch) {
        try {
          const [result] = await run([w.item]);
          w.resolve(result!);
        } catch (alone) {
          w.reject(alone);
        }
      }
    }
  };

  const take = (): Array<Waiting<I, O>> => {
    const batch: Array<Waiting<I, O>> = [];
    const used = new Set<string>(busy.keys());
    const left: Array<Waiting<I, O>> = [];
    for (const w of queue) {
      const keys = options.keys?.(w.item) ?? [];
      if (batch.length >= maxBatch || keys.some((k) => used.has(k))) {
        // Everything behind a deferred item with the same key stays behind it too.
        for (const k of keys) used.add(k);
        left.push(w);
        continue;
      }
      for (const k of keys) used.add(k);
      batch.push(w);
    }
    queue.length = 0;
    queue.push(...left);
    return batch;
  };

  const dispatch = () => {
    while (inFlight < maxInFlight && queue.length > 0) {
      if (gather && crowded && queue.length < gather.items) {
        const wait = gather.ms - (performance.now() - lastStart);
        if (wait > 0) {
          gathering ??= setTimeout(() => {
            gathering = undefined;
            dispatch();
          }, wait);
          return;
        }
      }
      const batch = take();
      if (batch.length === 0) return;
      const keys = options.keys ? batch.flatMap((w) => options.keys!(w.item)) : [];
      for (const k of keys) busy.set(k, (busy.get(k) ?? 0) + 1);
      inFlight++;
      lastStart = performance.now();
      void settle(batch).finally(() => {
        for (const k of keys) {
          const n = busy.get(k)! - 1;
          if (n === 0) busy.delete(k);
          else busy.set(k, n);
        }
        inFlight--;
        crowded = queue.length > 0;
        dispatch();
      });
    }
  };

  return {
    add(item: I): Promise<O> {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        // After this turn of the event loop: the requests whose bytes arrived together go together.
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            dispatch();
          });
        }
      });
    },
    // eslint-disable-next-line no-restricted-syntax -- made once per app, not per request
    get waiting() {
      return queue.length;
    },
  };
}
