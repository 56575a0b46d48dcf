import { describe, expect, it } from 'vitest';
import { CardCache } from '../src/server/modules/servers/card-cache';

const cardJson = (id: number, likes: number, dislikes: number) => JSON.stringify({ id: String(id), name: `S${id}`, likes, dislikes });

describe('cards held in memory, updated by votes', () => {
  const filled = async () => {
    const cache = new CardCache(60_000);
    await cache.refresh([1, 2], async (ids) => new Map(ids.map((id) => [id, cardJson(id, 5, 1)])));
    return cache;
  };

  it('sets a held card’s counters to what the vote wrote, with a new digest', async () => {
    const cache = await filled();
    const [before] = await cache.cards([1], async () => new Map());
    expect(cache.setCounters(1, { likes: 6, dislikes: 1 })).toBe(true);
    expect(JSON.parse(cache.peek(1)!)).toEqual({ id: '1', name: 'S1', likes: 6, dislikes: 1 });
    const [after] = await cache.cards([1], async () => new Map());
    expect(after!.digest).not.toEqual(before!.digest);
    expect(cache.size).toBe(2);
  });

  it('drops the card instead when the counters are older than what it shows', async () => {
    const cache = await filled();
    expect(cache.setCounters(2, { likes: 4, dislikes: 1 })).toBe(true);
    expect(cache.peek(2)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('answers false for a card it does not hold, and keeps no card a read under way took from before the vote', async () => {
    const cache = new CardCache(60_000);
    expect(cache.setCounters(3, { likes: 1, dislikes: 0 })).toBe(false);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reading = cache.refresh([3], async (ids) => {
      await gate;
      return new Map(ids.map((id) => [id, cardJson(id, 0, 0)]));
    });
    cache.setCounters(3, { likes: 1, dislikes: 0 });
    release();
    await reading;
    expect(cache.peek(3)).toBeUndefined();
  });
});
