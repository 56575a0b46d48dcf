import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchIndexRepository } from '../src/server/modules/servers/search-index.repository';
import { searchIndexSync } from '../src/server/modules/servers/search-index.sync';
import type { ChangedRow } from '../src/server/modules/servers/search-index.types';

const FRESH_MS = 1000;

const row = (id: number, name: string): ChangedRow => ({
  id,
  name,
  hidden: false,
  filterIds: [],
  likes: 0,
  totalBoosts: 0,
  totalJoins: 0,
  currentPlayers: 0,
  online: null,
  maxPlayers: null,
  monthVotes: 0,
  // Newer with each id: sorted by `new`, the highest id comes first.
  createdAt: new Date(Date.UTC(2026, 10, 1, id)),
  lastBoostedAt: null,
  dislikes: 0,
  views: 0,
});

/**
 * A repository whose change reads answer only when the test says: whether a search waited for a
 * read is then plain to see.
 */
function gatedRepository() {
  const reads: Array<{ answer: (rows: ChangedRow[]) => void; fail: (err: Error) => void }> = [];
  let mark = 0;
  const repository = {
    watermark: async () => String(mark),
    loadPage: async (afterId: number) => (afterId === 0 ? [row(1, 'First City')] : []),
    changesSince: () =>
      new Promise<{ rows: ChangedRow[]; deleted: number[]; watermark: string }>((resolve, reject) => {
        reads.push({ answer: (rows) => resolve({ rows, deleted: [], watermark: String(++mark) }), fail: reject });
      }),
  } as unknown as SearchIndexRepository;
  return { repository, reads };
}

const names = (index: { query: (q: { q: string; sort: 'new'; offset: number; limit: number }) => { ids: number[] } }) =>
  index.query({ q: 'city', sort: 'new', offset: 0, limit: 10 }).ids;

/** A search under way, and whether it has answered yet. */
function watched<T>(search: Promise<T>): { answer: Promise<T>; answered: boolean } {
  const watch = {
    answered: false,
    answer: search.then((value) => {
      watch.answered = true;
      return value;
    }),
  };
  return watch;
}

/** Settles every promise callback queued so far. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the search index freshness', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('reads changes ahead of the freshness time without holding the search that starts the read', async () => {
    const { repository, reads } = gatedRepository();
    const sync = searchIndexSync({ repository, freshForMs: FRESH_MS });
    expect(names(await sync.fresh())).toEqual([1]);

    // Early in the freshness time: no read at all.
    vi.advanceTimersByTime(FRESH_MS / 2);
    expect(names(await sync.fresh())).toEqual([1]);
    expect(reads).toHaveLength(0);

    // Late in it: the read starts, and the search answers from the index as it stands.
    vi.advanceTimersByTime(FRESH_MS * 0.4);
    expect(names(await sync.fresh())).toEqual([1]);
    expect(reads).toHaveLength(1);
    // Searches meanwhile start no second read.
    expect(names(await sync.fresh())).toEqual([1]);
    expect(reads).toHaveLength(1);

    reads[0]!.answer([row(2, 'Second City')]);
    await settle();
    // The read landed before the time ran out: the write shows, and nothing waits.
    vi.advanceTimersByTime(FRESH_MS * 0.2);
    expect(names(await sync.fresh())).toEqual([2, 1]);
    expect(reads).toHaveLength(1);
  });

  it('makes searches wait once the whole freshness time has passed, so an unannounced write shows within it', async () => {
    const { repository, reads } = gatedRepository();
    const sync = searchIndexSync({ repository, freshForMs: FRESH_MS });
    await sync.fresh();
    vi.advanceTimersByTime(FRESH_MS);
    const search = watched(sync.fresh());
    await settle();
    expect(reads).toHaveLength(1);
    expect(search.answered).toBe(false);
    reads[0]!.answer([row(3, 'Third City')]);
    expect(names(await search.answer)).toEqual([3, 1]);
  });

  it('tries a failed early read again when the freshness time runs out, and that search waits for it', async () => {
    const warn = vi.fn();
    const { repository, reads } = gatedRepository();
    const sync = searchIndexSync({ repository, freshForMs: FRESH_MS, log: { warn } });
    await sync.fresh();
    vi.advanceTimersByTime(FRESH_MS * 0.9);
    await sync.fresh();
    reads[0]!.fail(new Error('connection lost'));
    await settle();
    expect(warn).toHaveBeenCalledTimes(1);
    // Within the time: answered from the index as it stands, no read again yet.
    expect(names(await sync.fresh())).toEqual([1]);
    expect(reads).toHaveLength(1);

    vi.advanceTimersByTime(FRESH_MS * 0.1);
    const search = watched(sync.fresh());
    await settle();
    expect(reads).toHaveLength(2);
    expect(search.answered).toBe(false);
    reads[1]!.answer([row(4, 'Fourth City')]);
    expect(names(await search.answer)).toEqual([4, 1]);
  });

  it('waits for a change announced while an early read is under way', async () => {
    const { repository, reads } = gatedRepository();
    const sync = searchIndexSync({ repository, freshForMs: FRESH_MS });
    await sync.fresh();
    vi.advanceTimersByTime(FRESH_MS * 0.9);
    await sync.fresh();
    expect(reads).toHaveLength(1);
    // The early read began before this change: the search needs one that begins after it.
    sync.markStale();
    const search = sync.fresh();
    reads[0]!.answer([]);
    await settle();
    expect(reads).toHaveLength(2);
    reads[1]!.answer([row(5, 'Fifth City')]);
    expect(names(await search)).toEqual([5, 1]);
  });
});
