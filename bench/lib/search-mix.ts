import { FILTER_CATEGORIES } from '../../src/server/db/reference-data';
import { READ_HEADERS, load } from './load';
import { fmt } from './output';
import { pick, type Row } from './report';
import { SORTS } from '../../src/shared/schemas/server';
import { COMMON_WORDS } from '../seed/words';

/**
 * The uncached search mix: for each kind of search, a list of distinct queries walked in a
 * shuffled order, so every request asks something the app was not just asked (as real traffic
 * does) and a cache of whole answers cannot help. A kind's list is long enough for 90,000 or more
 * requests before it comes round again (7 s at 13,000 a second, the warm-up's included); the run
 * reports whether it did.
 */
export interface SearchKind {
  name: string;
  queries: string[];
}

const FILTERS = FILTER_CATEGORIES.flatMap((c) => c.filters);
/** Page sizes: each a full page, and many more distinct queries than one size. */
const LIMITS = Array.from({ length: 31 }, (_, i) => 20 + i);

function query(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return `/api/servers?${parts.join('&')}`;
}

function filterPairs(): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < FILTERS.length; i++) for (let j = i + 1; j < FILTERS.length; j++) pairs.push(`${FILTERS[i]},${FILTERS[j]}`);
  return pairs;
}

/** Fisher–Yates with a fixed seed: the same order on every run. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const j = (state >>> 0) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The kinds of search the benchmark measures, each reported on its own line. `rare` are the seed's made-up words. */
export function searchKinds(rare: string[]): SearchKind[] {
  const pairs = filterPairs();
  const kinds: SearchKind[] = [];
  const common: string[] = [];
  for (const q of COMMON_WORDS)
    for (const sort of SORTS)
      for (const limit of LIMITS) for (const page of [0, 1, 2, 3, 4, 5]) common.push(query({ q, sort, limit, offset: page * limit }));
  kinds.push({ name: 'search q common word', queries: common });

  // The tail of the made-up words: each names a handful of servers.
  const tail = rare.slice(Math.floor(rare.length / 5));
  kinds.push({
    name: 'search q rare word',
    queries: tail.flatMap((q) => SORTS.flatMap((sort) => [20, 24, 30].map((limit) => query({ q, sort, limit })))),
  });

  kinds.push({
    name: 'search q + 2 filters',
    queries: COMMON_WORDS.flatMap((q) => pairs.flatMap((filters) => [20, 24, 30].map((limit) => query({ q, filters, limit })))),
  });
  kinds.push({
    name: 'search 2 filters',
    queries: pairs.flatMap((filters) => SORTS.flatMap((sort) => LIMITS.slice(0, 16).map((limit) => query({ filters, sort, limit })))),
  });

  const sorted: string[] = [];
  for (const sort of ['likes', 'new', 'players'] as const)
    for (const limit of LIMITS) for (let page = 0; page < 1000; page++) sorted.push(query({ sort, limit, offset: page * limit }));
  kinds.push({ name: 'sort likes/new/players', queries: sorted });

  const deep: string[] = [];
  for (const sort of SORTS)
    for (const limit of LIMITS)
      for (const filters of ['', ...FILTERS])
        for (const online of [undefined, 'true'])
          for (const page of [198, 199, 200, 201, 202]) deep.push(query({ sort, limit, offset: page * limit, filters, online }));
  kinds.push({ name: 'page 200', queries: deep });

  return kinds.map((k, i) => ({ name: k.name, queries: shuffled(k.queries, 0x9e3779b9 + i) }));
}

/** Walks a kind's queries in order, round and round; `wrapped` tells whether any came up twice. */
export function cycle(queries: string[]): { next: () => string; wrapped: () => boolean } {
  let i = 0;
  return {
    next: () => queries[i++ % queries.length]!,
    wrapped: () => i > queries.length,
  };
}

/**
 * Each kind of search for `seconds` at `connections`, a new query per request (after a second's
 * unmeasured warm-up in a full run), the app at rest between kinds.
 */
export async function measureSearch(options: {
  baseUrl: string;
  rareWords: string[];
  seconds: number;
  connections: number;
  quick: boolean;
  drain: () => Promise<void>;
}): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of searchKinds(options.rareWords)) {
    const queries = cycle(kind.queries);
    const next = () => ({ path: queries.next(), headers: READ_HEADERS });
    if (!options.quick) {
      await load({ baseUrl: options.baseUrl, seconds: 1, connections: 10, next });
      await options.drain();
    }
    const result = await load({ baseUrl: options.baseUrl, seconds: options.seconds, connections: options.connections, next });
    await options.drain();
    rows.push({ target: kind.name, kind: 'search', path: kind.queries[0]!, ...pick(result), repeated: queries.wrapped() });
    console.log(`  ${kind.name.padEnd(30)} ${fmt(result.rps).padStart(7)} req/s  p99 ${fmt(result.p99, 1)} ms`);
  }
  return rows;
}
