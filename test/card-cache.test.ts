import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardCache } from '../src/server/modules/servers/card-cache';
import { listDigest } from '../src/server/modules/servers/list-body';
import type { ChangedRow } from '../src/server/modules/servers/search-index.types';

const cardJson = (id: number, likes: number, dislikes: number) => JSON.stringify({ id: String(id), name: `S${id}`, likes, dislikes });

describe('cards held in memory, updated by votes', () => {
  const filled = async () => {
    const cache = new CardCache(60_000);
    await cache.refresh([1, 2], async (ids) => new Map(ids.map((id) => [id, cardJson(id, 5, 1)])));
    return cache;
  };

  it('sets a held card’s counters to what the vote wrote, with a new digest (so lists showing it get a new ETag)', async () => {
    const cache = await filled();
    const [before] = await cache.cards([1], async () => new Map());
    expect(cache.setCounters(1, { likes: 6, dislikes: 1 })).toBe(true);
    expect(JSON.parse(cache.peek(1)!)).toEqual({ id: '1', name: 'S1', likes: 6, dislikes: 1 });
    const [after] = await cache.cards([1], async () => new Map());
    // A count with more digits: the card's JSON length follows, so a list answer is sized right.
    expect(cache.setCounters(1, { likes: 123_456, dislikes: 1 })).toBe(true);
    const [longer] = await cache.cards([1], async () => new Map());
    expect(longer!.jsonLength).toBe(Buffer.byteLength(cache.peek(1)!));
    expect(longer!.jsonLength).toBe(after!.jsonLength + 5);
    const unranked = { values: new Int32Array(5), gameNames: [null] };
    expect(listDigest([after!], unranked)).not.toEqual(listDigest([before!], unranked));
    expect(cache.size).toBe(2);
  });

  it('drops the card instead when the counters are older than what it shows', async () => {
    const cache = await filled();
    expect(cache.setCounters(2, { likes: 4, dislikes: 1 })).toBe(true);
    expect(cache.peek(2)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('sets the month’s daily votes a daily vote’s statement answered, and drops the card for a smaller count (a new month, or late news)', async () => {
    const cache = new CardCache(60_000);
    const card = (id: number, monthVotes: number) => JSON.stringify({ id: String(id), likes: 5, dislikes: 1, monthVotes });
    await cache.refresh([1, 2], async (ids) => new Map(ids.map((id) => [id, card(id, 40)])));
    expect(cache.setCounters(1, { monthVotes: 41 })).toBe(true);
    expect(JSON.parse(cache.peek(1)!)).toEqual({ id: '1', likes: 5, dislikes: 1, monthVotes: 41 });
    expect(cache.setCounters(2, { monthVotes: 1 })).toBe(true);
    expect(cache.peek(2)).toBeUndefined();
  });

  it('drops a card whose counters it cannot read as whole numbers, to be read afresh', async () => {
    const cache = await filled();
    // The cards above show no month's count: a daily vote's cannot be written into them.
    expect(cache.setCounters(1, { monthVotes: 1 })).toBe(true);
    expect(cache.peek(1)).toBeUndefined();
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

describe('cards after the search index read the rows written since', () => {
  const row = (id: number, over: Partial<ChangedRow> = {}): ChangedRow => ({
    id,
    name: `S${id}`,
    hidden: false,
    filterIds: [],
    likes: 5,
    dislikes: 1,
    views: 10,
    totalBoosts: 2,
    totalJoins: 3,
    currentPlayers: 4,
    online: true,
    maxPlayers: 32,
    monthVotes: 6,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    lastBoostedAt: new Date('2026-02-01T00:00:00Z'),
    ...over,
  });
  // The card as the API writes it: the row's figures, dates in ISO, and what only edits change.
  const cardOf = (r: ChangedRow) =>
    JSON.stringify({
      id: String(r.id),
      name: r.name,
      bio: 'Hello',
      likes: r.likes,
      dislikes: r.dislikes,
      views: r.views,
      totalBoosts: r.totalBoosts,
      totalJoins: r.totalJoins,
      currentPlayers: r.currentPlayers,
      online: r.online,
      maxPlayers: r.maxPlayers,
      monthVotes: r.monthVotes,
      lastBoostedAt: r.lastBoostedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    });
  const held = async (rows: ChangedRow[]) => {
    const cache = new CardCache(60_000);
    await cache.refresh(
      rows.map((r) => r.id),
      async () => new Map(rows.map((r) => [r.id, cardOf(r)])),
    );
    return cache;
  };

  it('keeps a card its row still matches (a vote here set it already) and drops every one the row moved on from', async () => {
    const moved: [string, Partial<ChangedRow>][] = [
      ['name', { name: 'Renamed' }],
      ['likes', { likes: 6 }],
      ['dislikes', { dislikes: 2 }],
      ['views', { views: 11 }],
      ['boosts', { totalBoosts: 3 }],
      ['joins', { totalJoins: 4 }],
      ['players', { currentPlayers: 5 }],
      ['online', { online: false }],
      ['never polled', { online: null, maxPlayers: null }],
      ['slots', { maxPlayers: 64 }],
      ['month votes', { monthVotes: 7 }],
      ['boosted', { lastBoostedAt: new Date('2026-03-01T00:00:00Z') }],
      ['never boosted', { lastBoostedAt: null }],
    ];
    const rows = [row(1), ...moved.map((_, i) => row(i + 2))];
    const cache = await held([...rows, row(99)]);
    cache.dropChanged([row(1), ...moved.map(([, change], i) => row(i + 2, change))], [99]);
    expect(cache.peek(1)).toBe(cardOf(row(1)));
    moved.forEach(([what], i) => expect(cache.peek(i + 2), what).toBeUndefined());
    expect(cache.peek(99)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('keeps no card a read under way took from before the write, even one equal to the row', async () => {
    const cache = new CardCache(60_000);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reading = cache.refresh([5], async () => {
      await gate;
      return new Map([[5, cardOf(row(5))]]);
    });
    cache.dropChanged([row(5)], []);
    release();
    await reading;
    expect(cache.peek(5)).toBeUndefined();
  });
});

describe('cards kept fresh by the refresher', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const card = (id: number, joins: number, boosts: number) =>
    JSON.stringify({ id: String(id), name: `S${id}`, boosts, totalBoosts: 9, joins, totalJoins: 9, likes: 1 });

  it('reads again the cards whose last-day joins or last-week boosts move with time, and renews the still ones in place', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T12:00:00Z'));
    const ttl = 60_000;
    const cache = new CardCache(ttl);
    const cards = new Map([
      [1, card(1, 0, 0)],
      [2, card(2, 3, 0)],
      [3, card(3, 0, 1)],
      [4, card(4, 0, 0)],
    ]);
    await cache.refresh([1, 2, 3, 4], async (ids) => new Map(ids.map((id) => [id, cards.get(id)!])));

    vi.setSystemTime(Date.now() + ttl / 2 + 1);
    expect(cache.ageing(ttl / 2, 100)).toEqual([2, 3]);
    // Renewed, not dropped: held and fresh past the card time of their read.
    vi.setSystemTime(Date.now() + ttl / 2 + 1);
    expect(cache.peek(1)).toBe(cards.get(1));
    expect(cache.peek(4)).toBe(cards.get(4));
    expect(cache.peek(2)).toBeUndefined();

    // Still cards too are read again in the end, six card times after their read.
    for (let i = 0; i < 12; i++) {
      vi.setSystemTime(Date.now() + ttl / 2 + 1);
      const due = cache.ageing(ttl / 2, 100);
      if (due.includes(1)) {
        expect(due).toEqual(expect.arrayContaining([1, 4]));
        return;
      }
    }
    throw new Error('a still card was never read again');
  });
  it('evicts the oldest card by its own id, whatever its size', async () => {
    const cache = new CardCache(60_000, 2);
    const load = async (ids: number[]) => new Map(ids.map((id) => [id, cardJson(id, 1, 0)]));
    for (const id of [2 ** 31, 1, 2 ** 40, 3]) await cache.cards([id], load);
    expect(cache.size).toBe(2);
    expect([2 ** 31, 1, 2 ** 40, 3].map((id) => cache.peek(id) !== undefined)).toEqual([false, false, true, true]);
    expect(JSON.parse(cache.peek(2 ** 40)!).id).toBe(String(2 ** 40));
  });
});
