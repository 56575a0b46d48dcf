import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SearchIndex, type IndexQuery, type IndexRow } from '../src/server/modules/servers/search-index';
import { SortOrders } from '../src/server/modules/servers/search-index.orders';
import { SORTS, type Sort } from '../src/shared/schemas/server';

/** The rules the index must follow, written the slow, obvious way. */
function reference(rows: Map<number, IndexRow>, query: IndexQuery): { ids: number[]; total: number } {
  const words = (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const wordMatch = (name: string, word: string) =>
    word.length >= 3 || !/^[\p{L}\p{N}]+$/u.test(word) ? name.includes(word) : name.split(/[^\p{L}\p{N}]+/u).includes(word);
  const key: Record<Sort, (r: IndexRow) => number> = {
    likes: (r) => r.likes,
    popular: (r) => r.likes + r.totalBoosts + r.totalJoins,
    hot: (r) => r.lastBoostedAt?.getTime() ?? -Infinity,
    new: (r) => r.createdAt.getTime(),
    // Never polled: no count, after every polled server.
    players: (r) => (r.online === null ? -1 : r.currentPlayers),
    joins: (r) => r.totalJoins,
    votes: (r) => r.monthVotes,
  };
  const matches = [...rows.values()]
    .filter((r) => !r.hidden)
    .filter((r) => query.sort !== 'hot' || r.lastBoostedAt !== null)
    .filter((r) => (query.filterIds ?? []).every((f) => r.filterIds.includes(f)))
    .filter((r) => words.every((w) => wordMatch(r.name.toLowerCase(), w)))
    // Live state: asking any of it means online now; a range and free slots compare the count.
    .filter(
      (r) => !(query.online || query.freeSlots || query.minPlayers !== undefined || query.maxPlayers !== undefined) || r.online === true,
    )
    .filter((r) => !query.freeSlots || (r.maxPlayers !== null && r.currentPlayers < r.maxPlayers))
    .filter((r) => query.minPlayers === undefined || r.currentPlayers >= query.minPlayers)
    .filter((r) => query.maxPlayers === undefined || r.currentPlayers <= query.maxPlayers)
    .sort((a, b) => {
      const [ka, kb] = [key[query.sort](a), key[query.sort](b)];
      return ka === kb ? a.id - b.id : kb - ka;
    });
  return { ids: matches.slice(query.offset, query.offset + query.limit).map((r) => r.id), total: matches.length };
}

const NAME_WORDS = ['rp', 'city', 'life', 'zone', 'los', 'santos', 'rpg', 'sharp', 'la', 'ö', '5', 'x%y', 'Night'];
const nameArb = fc
  .tuple(fc.array(fc.constantFrom(...NAME_WORDS), { minLength: 1, maxLength: 4 }), fc.constantFrom(' ', '-'))
  .map(([words, separator]) => words.join(separator));
const rowArb = (id: number) =>
  fc.record({
    id: fc.constant(id),
    name: nameArb,
    hidden: fc.integer({ min: 0, max: 99 }).map((n) => n < 15),
    filterIds: fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
    likes: fc.integer({ min: 0, max: 5 }),
    totalBoosts: fc.integer({ min: 0, max: 3 }),
    totalJoins: fc.integer({ min: 0, max: 3 }),
    currentPlayers: fc.integer({ min: 0, max: 4 }),
    online: fc.constantFrom(true, false, null),
    maxPlayers: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
    monthVotes: fc.integer({ min: 0, max: 4 }),
    createdAt: fc.integer({ min: 0, max: 20 }).map((d) => new Date(Date.UTC(2026, 0, 1 + d))),
    lastBoostedAt: fc.option(
      fc.integer({ min: 0, max: 5 }).map((d) => new Date(Date.UTC(2026, 1, 1 + d))),
      { nil: null },
    ),
  });
const queryArb: fc.Arbitrary<IndexQuery> = fc.record({
  q: fc.option(
    fc
      .array(fc.constantFrom('rp', 'city', 'ity', 'l', 'la', 'zo', 'sant', 'x%', '%', 'night rp', 'ö', '5', 'nothing'), { maxLength: 2 })
      .map((w) => w.join(' ')),
    { nil: undefined },
  ),
  filterIds: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 2 }),
  sort: fc.constantFrom(...SORTS),
  limit: fc.integer({ min: 1, max: 8 }),
  offset: fc.integer({ min: 0, max: 30 }),
  online: fc.option(fc.boolean(), { nil: undefined }),
  freeSlots: fc.option(fc.boolean(), { nil: undefined }),
  minPlayers: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  maxPlayers: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
});

type Op =
  | { kind: 'upsert'; row: IndexRow }
  | { kind: 'upsertMany'; rows: IndexRow[] }
  | { kind: 'remove'; id: number }
  | { kind: 'query'; query: IndexQuery };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .integer({ min: 1, max: 60 })
      .chain((id) => rowArb(id))
      .map((row) => ({ kind: 'upsert' as const, row })),
  },
  // A read of changes: few rows move one by one, many (an id twice included) each order at once.
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.integer({ min: 1, max: 60 }).chain((id) => rowArb(id)),
        { minLength: 1, maxLength: 40, size: 'max' },
      )
      .map((rows) => ({ kind: 'upsertMany' as const, rows })),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((id) => ({ kind: 'remove' as const, id })) },
  { weight: 3, arbitrary: queryArb.map((query) => ({ kind: 'query' as const, query })) },
);

describe('the in-memory search index', () => {
  it.each([
    ['rare words from their postings', undefined, 'auto'],
    ['rare words from their postings, most words past the few matches', 2, 'auto'],
    ['every word through its bitset', 0, 'auto'],
    ['every page walked along its order', 0, 'walk'],
    ['every page cut from marks on positions', 0, 'marks'],
  ] as const)(
    'answers every query as the plain rules do, through any sequence of inserts, changes and deletes (%s)',
    (_, fewMatches, cut) => {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 1, maxLength: 120 }), (ops) => {
          const index = new SearchIndex({ fewMatches, cut });
          const rows = new Map<number, IndexRow>();
          for (const op of ops) {
            if (op.kind === 'upsert') {
              index.upsert(op.row);
              rows.set(op.row.id, op.row);
            } else if (op.kind === 'upsertMany') {
              index.upsertMany(op.rows);
              for (const row of op.rows) rows.set(row.id, row);
            } else if (op.kind === 'remove') {
              index.remove(op.id);
              rows.delete(op.id);
            } else {
              expect(index.query(op.query)).toEqual(reference(rows, op.query));
            }
          }
          for (const sort of SORTS) {
            const everything: IndexQuery = { sort, limit: 1000, offset: 0 };
            expect(index.query(everything)).toEqual(reference(rows, everything));
          }
          // Ranks: the place in Most Popular among listed servers, and among those of the same game.
          index.setGameFilters([2, 1]);
          const popular = reference(rows, { sort: 'popular', limit: 1000, offset: 0 }).ids;
          const gameOf = (id: number) => [2, 1].find((g) => rows.get(id)!.filterIds.includes(g));
          for (const id of rows.keys()) {
            const rank = index.rankOf(id, 0);
            if (!popular.includes(id)) {
              expect(rank).toBeUndefined();
              continue;
            }
            const game = gameOf(id);
            const sameGame = popular.filter((other) => game !== undefined && gameOf(other) === game);
            expect(rank).toEqual({
              position: popular.indexOf(id) + 1,
              of: popular.length,
              game: game === undefined ? null : { filterId: game, position: sameGame.indexOf(id) + 1, of: sameGame.length },
            });
          }
        }),
        { numRuns: 300 },
      );
    },
  );

  it.each(['auto', 'walk', 'marks'] as const)(
    'answers a search again after any change as the plain rules do, though its first matches are held (%s)',
    (cut) => {
      // A few searches asked over and over (a held prefix each), with single changes between them:
      // a vote, a rename, new filters, hidden, boosted, online, players, a new server, a deletion.
      // Searches by player counts and free slots are never held: their answers move with the counts.
      const searches: IndexQuery[] = SORTS.flatMap((sort) => [
        { sort, limit: 3, offset: 0 },
        { sort, limit: 4, offset: 2 },
        { q: 'rp', sort, limit: 3, offset: 1 },
        { q: 'city night', sort, limit: 5, offset: 0 },
        { filterIds: [2, 1], sort, limit: 2, offset: 1 },
        { q: 'la', filterIds: [3], sort, limit: 6, offset: 0, online: true },
        { sort, limit: 4, offset: 0, online: true },
        { sort, limit: 5, offset: 1, minPlayers: 2 },
        { sort, limit: 5, offset: 0, freeSlots: true },
      ]);
      const changeArb = fc.oneof(
        fc.record({ id: fc.integer({ min: 1, max: 40 }), likes: fc.integer({ min: 0, max: 5 }) }),
        fc.record({ id: fc.integer({ min: 1, max: 40 }), name: nameArb }),
        fc.record({ id: fc.integer({ min: 1, max: 40 }), filterIds: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }) }),
        fc.record({ id: fc.integer({ min: 1, max: 40 }), hidden: fc.boolean() }),
        fc.record({ id: fc.integer({ min: 1, max: 40 }), online: fc.constantFrom(true, false, null) }),
        fc.record({
          id: fc.integer({ min: 1, max: 40 }),
          lastBoostedAt: fc.option(fc.constant(new Date(Date.UTC(2026, 1, 3))), { nil: null }),
        }),
        fc.record({
          id: fc.integer({ min: 1, max: 40 }),
          currentPlayers: fc.integer({ min: 0, max: 4 }),
          monthVotes: fc.integer({ min: 0, max: 4 }),
        }),
        fc.record({ id: fc.integer({ min: 1, max: 40 }), maxPlayers: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }) }),
        fc.record({ remove: fc.integer({ min: 1, max: 45 }) }),
      );
      fc.assert(
        fc.property(
          fc.tuple(...Array.from({ length: 30 }, (_, i) => rowArb(i + 1))),
          fc.array(changeArb, { minLength: 1, maxLength: 40 }),
          (initial, changes) => {
            const index = new SearchIndex({ fewMatches: 0, cut });
            const rows = new Map<number, IndexRow>();
            for (const row of initial) {
              index.upsert(row);
              rows.set(row.id, row);
            }
            const check = () => {
              for (const search of searches) expect(index.query(search)).toEqual(reference(rows, search));
            };
            check();
            for (const change of changes) {
              if ('remove' in change) {
                index.remove(change.remove);
                rows.delete(change.remove);
              } else {
                // An id past the first 30 is a new server.
                const row: IndexRow = { ...(rows.get(change.id) ?? initial[0]!), ...change };
                index.upsert(row);
                rows.set(row.id, row);
              }
              check();
            }
          },
        ),
        { numRuns: 150 },
      );
    },
  );

  it.each(['auto', 'walk', 'marks'] as const)('pages through thousands of matches (%s), and grows past its first capacity', (cut) => {
    const index = new SearchIndex({ cut });
    const rows = new Map<number, IndexRow>();
    for (let id = 1; id <= 6000; id++) {
      const row: IndexRow = {
        id,
        name: `${id % 3 === 0 ? 'Night City' : 'Sunny Zone'} ${id}`,
        hidden: id % 17 === 0,
        filterIds: id % 2 === 0 ? [1, 2] : [2],
        likes: (id * 7919) % 101,
        totalBoosts: id % 5,
        totalJoins: id % 11,
        currentPlayers: (id * 31) % 64,
        online: id % 3 !== 1,
        maxPlayers: 48,
        monthVotes: (id * 17) % 23,
        createdAt: new Date(1_700_000_000_000 + ((id * 104729) % 6000) * 1000),
        lastBoostedAt: id % 4 === 0 ? new Date(1_700_000_000_000 + id) : null,
      };
      index.upsert(row);
      rows.set(id, row);
    }
    // Votes move servers up and down the orders.
    for (let id = 1; id <= 6000; id += 13) {
      const row = { ...rows.get(id)!, likes: rows.get(id)!.likes + 50 };
      index.upsert(row);
      rows.set(id, row);
    }
    // Deleted servers leave their slots empty: no order holds them.
    for (let id = 5; id <= 6000; id += 29) {
      index.remove(id);
      rows.delete(id);
    }
    // The first load appends and sorts once: the same answers.
    const loaded = new SearchIndex({ cut });
    loaded.load([...rows.values()].reverse());
    loaded.finishLoad();
    for (const sort of SORTS)
      for (const query of [
        { sort, limit: 24, offset: 0 },
        { sort, limit: 24, offset: 4800 },
        { q: 'zone', sort, limit: 30, offset: 3000 },
        { filterIds: [2], sort, limit: 24, offset: 2400 },
        { q: 'city', filterIds: [1], sort, limit: 10, offset: 100 },
        { q: 'city', filterIds: [1], sort, limit: 50, offset: 0 },
        { filterIds: [1, 2], sort, limit: 7, offset: 2700 },
        // Held, then cut from what is held, then past it (held again, longer), then from that.
        { q: 'zone', sort, limit: 24, offset: 0 },
        { q: 'zone', sort, limit: 24, offset: 48 },
        { q: 'zone', sort, limit: 30, offset: 250 },
        { q: 'zone', sort, limit: 20, offset: 260 },
      ] satisfies IndexQuery[])
        for (const built of [index, loaded]) expect(built.query(query)).toEqual(reference(rows, query));
  });
});

describe('the first load', () => {
  it('answers as the plain rules do with an id loaded twice, changes between the load and the sort, and changes after it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 1, max: 25 }).chain((id) => rowArb(id)),
          { minLength: 1, maxLength: 40, size: 'max' },
        ),
        fc.array(
          fc.oneof(
            fc.integer({ min: 1, max: 25 }).map((remove) => ({ remove })),
            fc.integer({ min: 1, max: 25 }).chain((id) => rowArb(id)),
          ),
          {
            maxLength: 5,
          },
        ),
        fc.array(
          fc.integer({ min: 1, max: 40 }).chain((id) => rowArb(id)),
          { maxLength: 8 },
        ),
        queryArb,
        (loaded, between, after, query) => {
          const index = new SearchIndex({ fewMatches: 0 });
          const rows = new Map<number, IndexRow>();
          index.load(loaded);
          for (const row of loaded) rows.set(row.id, row);
          // Changes read while the load was under way are applied before the orders are sorted.
          for (const change of between) {
            if ('remove' in change) {
              index.remove(change.remove);
              rows.delete(change.remove);
            } else {
              index.upsert(change);
              rows.set(change.id, change);
            }
          }
          index.finishLoad();
          expect(index.query(query)).toEqual(reference(rows, query));
          expect(index.query(query)).toEqual(reference(rows, query));
          // Names added and renamed once the postings are packed grow them out of the block.
          for (const row of after) {
            index.upsert(row);
            rows.set(row.id, row);
          }
          expect(index.query(query)).toEqual(reference(rows, query));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('sort orders', () => {
  it('cut a page out of a few slots exactly as sorting them all would, ties broken by id', () => {
    // Ids in any order of the slots, and the matches handed over in any order: only the order's
    // tie-break by id can put equal keys right.
    const rowsArb = fc
      .integer({ min: 1, max: 80 })
      .chain((n) =>
        fc.tuple(
          fc.shuffledSubarray(
            Array.from({ length: 200 }, (_, i) => i + 1),
            { minLength: n, maxLength: n },
          ),
        ),
      )
      .chain(([ids]) => fc.tuple(...ids.map((id) => rowArb(id))));
    fc.assert(
      fc.property(
        rowsArb,
        fc.constantFrom(...SORTS),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 30 }),
        fc.func(fc.boolean()),
        fc.func(fc.integer()),
        (generated, sort, limit, offset, chosen, shuffleKey) => {
          const rows = generated.map((row) => ({ ...row, hidden: false }));
          const orders = new SortOrders();
          orders.grow(
            128,
            Int32Array.from({ length: 128 }, (_, slot) => rows[slot]?.id ?? 0),
          );
          rows.forEach((row, slot) => orders.add(slot, row, false));
          // A few of them, as a search's matches: any subset (boosted ones only for Hot, as the index keeps).
          const slots = rows.flatMap((row, slot) => (chosen(row.id) && (sort !== 'hot' || row.lastBoostedAt) ? [slot] : []));
          const expected = reference(new Map(slots.map((slot) => [rows[slot]!.id, rows[slot]!])), { sort, limit, offset });
          const shuffled = slots.map((slot) => ({ slot, at: shuffleKey(slot) })).sort((a, b) => a.at - b.at || a.slot - b.slot);
          expect(
            orders.page(
              shuffled.map((s) => s.slot),
              sort,
              offset,
              limit,
            ),
          ).toEqual(expected.ids);
        },
      ),
      { numRuns: 500 },
    );
  });
});
