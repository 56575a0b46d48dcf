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
