import type { PlayerCountRepository } from './player-count.repository';

/**
 * The live player total across listed servers (hidden ones do not count), kept in memory so
 * `GET /api/player-count` costs no query. `refresh()` recomputes it with one query and tells
 * `onChange` at most once per `throttleMs`, with the newest value, so a burst of polls sends
 * sockets one update instead of many.
 *
 * One query at a time: a refresh asked for while one runs waits for it and runs once more after
 * (that query may have started before the change being announced), however many ask meanwhile.
 * Two queries at once could also finish out of order and leave the older total in place.
 */
export function playerCountService(
  repo: Pick<PlayerCountRepository, 'totalPlayers'>,
  onChange: (count: number) => void,
  throttleMs = 1000,
) {
  let count = 0;
  let lastEmitAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let emitted = 0;
  let interval: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let queued: Promise<number> | undefined;

  const emit = () => {
    timer = undefined;
    if (count === emitted) return;
    emitted = count;
    lastEmitAt = Date.now();
    onChange(count);
  };

  const load = async (): Promise<number> => {
    count = await repo.totalPlayers();
    if (count !== emitted && !timer) {
      const wait = Math.max(0, lastEmitAt + throttleMs - Date.now());
      timer = setTimeout(emit, wait);
    }
    return count;
  };

  return {
    // eslint-disable-next-line no-restricted-syntax -- made once per app, not per request
    get count() {
      return count;
    },

    refresh(): Promise<number> {
      if (!running) {
        running = load().finally(() => (running = undefined));
        return running;
      }
      queued ??= running
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return this.refresh();
        });
      return queued;
    },

    /** The first value is known without telling anyone: nothing changed yet. */
    async init(): Promise<void> {
      await this.refresh();
      emitted = count;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },

    /**
     * Refreshes every `ms` as well: another instance may have changed counts, and this one's
     * `GET /api/player-count` must not stay behind (its sockets already hear it through Redis).
     */
    every(ms: number, onError: (error: unknown) => void): void {
      interval = setInterval(() => void this.refresh().catch(onError), ms);
      interval.unref();
    },

    stop(): void {
      if (timer) clearTimeout(timer);
      if (interval) clearInterval(interval);
      timer = undefined;
    },
  };
}

export type PlayerCountService = ReturnType<typeof playerCountService>;
