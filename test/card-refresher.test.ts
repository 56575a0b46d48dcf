import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardCache } from '../src/server/modules/servers/card-cache';
import { cardRefresher } from '../src/server/modules/servers/card-refresher';
import type { SearchIndex } from '../src/server/modules/servers/search-index';

const CARD_TTL_MS = 10 * 60_000;

/** An index of three listed servers, as far as the refresher looks at one. */
const index = { listedCount: 3, listedIds: () => [1, 2, 3] } as unknown as SearchIndex;

describe('the card refresher at shutdown', () => {
  afterEach(() => vi.useRealTimers());

  it('lets the batch under way finish before it says it stopped, and starts no other', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const warn = vi.fn();
    let answer: (cards: Map<number, string>) => void = () => undefined;
    const load = vi.fn(() => new Promise<Map<number, string>>((resolve) => (answer = resolve)));
    const cards = new CardCache(CARD_TTL_MS);
    const refresher = cardRefresher({
      cards,
      search: { loaded: true, fresh: async () => index },
      load,
      cardTtlMs: CARD_TTL_MS,
      log: { warn },
    });
    refresher.start();
    vi.advanceTimersByTime(2000);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));

    let stopped = false;
    const stopping = refresher.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    // The database must stay open: the batch is still reading.
    expect(stopped).toBe(false);
    answer(new Map([1, 2, 3].map((id) => [id, `{"id":"${id}","joins":0,"boosts":0}`])));
    await stopping;
    expect(cards.size).toBe(3);
    vi.advanceTimersByTime(10_000);
    expect(load).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('says it stopped at once when nothing is under way', async () => {
    const refresher = cardRefresher({
      cards: new CardCache(CARD_TTL_MS),
      search: { loaded: true, fresh: async () => index },
      load: async () => new Map(),
      cardTtlMs: CARD_TTL_MS,
    });
    refresher.start();
    await expect(refresher.stop()).resolves.toBeUndefined();
  });
});

describe('the card refresher at start-up', () => {
  const ids = Array.from({ length: 250 }, (_, i) => i + 1);
  const listed = { listedCount: ids.length, listedIds: () => ids } as unknown as SearchIndex;
  const cardsOf = (asked: number[]) => new Map(asked.map((id) => [id, `{"id":"${id}","joins":0,"boosts":0}`]));

  it('reads every missing card before it says they are held, without waiting for its first look', async () => {
    const load = vi.fn(async (asked: number[]) => cardsOf(asked));
    const cards = new CardCache(CARD_TTL_MS);
    const refresher = cardRefresher({ cards, search: { loaded: true, fresh: async () => listed }, load, cardTtlMs: CARD_TTL_MS });
    refresher.start();
    const started = Date.now();
    await expect(refresher.fill(10_000)).resolves.toBe(true);
    // Its first look comes 2 s after the start: the fill did not wait for it.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(cards.size).toBe(ids.length);
    expect(cards.missing(ids)).toEqual([]);
    // In batches a turn of the event loop each, as the looks read them.
    expect(load).toHaveBeenCalledTimes(3);
    await refresher.stop();
  });

  it('says false after its time when a read hangs, and false when a read fails', async () => {
    const hanging = cardRefresher({
      cards: new CardCache(CARD_TTL_MS),
      search: { loaded: true, fresh: async () => listed },
      load: () => new Promise<Map<number, string>>(() => undefined),
      cardTtlMs: CARD_TTL_MS,
    });
    hanging.start();
    await expect(hanging.fill(50)).resolves.toBe(false);

    const warn = vi.fn();
    const failing = cardRefresher({
      cards: new CardCache(CARD_TTL_MS),
      search: { loaded: true, fresh: async () => listed },
      load: async () => {
        throw new Error('connection refused');
      },
      cardTtlMs: CARD_TTL_MS,
      log: { warn },
    });
    failing.start();
    await expect(failing.fill(10_000)).resolves.toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    await failing.stop();
  });

  it('says true at once when cards are not kept, false while the index is not loaded, and reads nothing', async () => {
    const load = vi.fn(async (asked: number[]) => cardsOf(asked));
    const off = cardRefresher({ cards: new CardCache(0), search: { loaded: true, fresh: async () => listed }, load, cardTtlMs: 0 });
    off.start();
    await expect(off.fill(1000)).resolves.toBe(true);
    const unloaded = cardRefresher({
      cards: new CardCache(CARD_TTL_MS),
      search: { loaded: false, fresh: async () => listed },
      load,
      cardTtlMs: CARD_TTL_MS,
    });
    unloaded.start();
    await expect(unloaded.fill(1000)).resolves.toBe(false);
    expect(load).not.toHaveBeenCalled();
    await unloaded.stop();
  });
});
