import type { FastifyBaseLogger } from 'fastify';
import type { Rank, Server } from '../../../shared/schemas/server';
import { batcher } from '../../lib/batcher';
import { isRowLevelError } from '../../lib/row-errors';
import { cachedBody } from '../../lib/cached-body';
import type { FilterCatalog } from '../filters';
import type { ListOptions, ServersRepository } from './servers.repository';
import type { ServerFields } from './servers.mapper';
import { searchIndexSync } from './search-index.sync';
import type { SearchIndex } from './search-index';
import type { SearchIndexRepository } from './search-index.repository';
import { CardCache } from './card-cache';
import { listDigest, listSource, type PageRanks } from './list-body';
import { NO_GAME, RANK_FIELDS } from './search-index.ranks';
import { cardRefresher } from './card-refresher';

interface Deps {
  servers: Pick<ServersRepository, 'cardsByIds'>;
  filters: Pick<FilterCatalog, 'categories' | 'resolve' | 'nameOf'>;
  /** A row as the API shows a server (its media as addresses). */
  toApi: (row: ServerFields) => Server;
  now: () => Date;
  /** How long a list may be answered from memory; the index reads unannounced changes as often. */
  listCacheTtlMs: number;
  /** What the in-memory search index, which finds each page's servers, reads. */
  searchIndex: SearchIndexRepository;
  /** How long a server's card may be reused in lists (0: off); a change to the server drops it at once. */
  cardTtlMs: number;
  log?: Pick<FastifyBaseLogger, 'warn'> | undefined;
}

/** How stale the shared rank table may get while servers change. */
const RANK_MAX_AGE_MS = 1000;

/**
 * Lists answered from memory: the search index finds a page's servers, their cards (each listed
 * server's JSON, held off the heap and refreshed in the background) make its bytes, and ranks are
 * added as they stand (docs/decisions/028-search-index.md).
 */
export function indexedLists({ servers, filters, toApi, now, listCacheTtlMs, searchIndex, cardTtlMs, log }: Deps) {
  const cards = new CardCache(cardTtlMs);
  const gameFilters = filters.resolve(filters.categories().find((c) => c.category === 'Game')?.filters ?? []).map((f) => f.id);
  // Asks the database every list cache time for changes nobody announced (another instance
  // without Redis, a row written behind the app's back).
  const search = searchIndexSync({
    repository: searchIndex,
    gameFilters,
    freshForMs: listCacheTtlMs,
    onRowsChanged: (rows, deleted) => cards.dropChanged(rows, deleted),
    ...(log ? { log } : {}),
  });
  const loadCards = async (ids: number[]) => {
    const rows = await servers.cardsByIds(ids, now());
    return new Map(
      rows.map((row) => {
        // In code-unit order, as the server page's query sorts them (COLLATE "C").
        const filterNames = row.filterIds.flatMap((id) => filters.nameOf(id) ?? []).sort();
        const card = {
          ...row,
          filterNames,
          gallery: row.galleryKeys.map((storageKey) => ({ storageKey })),
          recentJoins: Number(row.recentJoins),
          recentBoosts: Number(row.recentBoosts),
        };
        // `toApiServer` builds exactly the schema's fields (typed as `Server`), so no schema runs per
        // card: refilling 100,000 cards spent a fifth of their time in it (a test parses the output).
        return [row.id, JSON.stringify(toApi(card))] as const;
      }),
    );
  };

  // Read after the write each answers, so each sees its own vote; a batch is one `cardsByIds` query.
  const freshCards = batcher((ids: number[]) => loadCards(ids).then((found) => ids.map((id) => found.get(id))), {
    maxBatch: 100,
    maxInFlight: 2,
    splitOn: isRowLevelError,
  });
  const refresher = cardRefresher({ cards, search, load: loadCards, cardTtlMs, log });

  /** A listed server's rank as the API shows it (null before the index is loaded or while hidden). */
  const rankOf = (index: SearchIndex | undefined, id: number): Rank | null => {
    // Ranks are walked again at most once a second while servers change; never staler than a cached list (0 in tests).
    const rank = index?.rankOf(id, Math.min(RANK_MAX_AGE_MS, listCacheTtlMs));
    if (!rank) return null;
    const game = rank.game && filters.nameOf(rank.game.filterId);
    return {
      position: rank.position,
      of: rank.of,
      game: rank.game && game ? { name: game, position: rank.game.position, of: rank.game.of } : null,
    };
  };
  /** The search index once loaded (ranks come from it), without waiting for the first load. */
  const loadedIndex = () => (search.loaded ? search.fresh() : Promise.resolve(undefined));
  /** A card's JSON with its rank added: ranks move with every vote, so they are not part of the cached card. */
  const withRank = (json: string, rank: string) => `${json.slice(0, -1)},"rank":${rank}}`;
  /** Each game filter's name as JSON bytes, made again when the name changes. */
  const gameNameJson = new Map<number, { name: string; json: Buffer }>();
  /** The ranks of `ids`, from one walk, as the answer writes them (`listSource`). */
  const pageRanks = (index: SearchIndex, ids: readonly number[]): PageRanks => {
    const values = new Int32Array(ids.length * RANK_FIELDS);
    index.ranksInto(ids, values, Math.min(RANK_MAX_AGE_MS, listCacheTtlMs));
    const gameNames = ids.map((_, i) => {
      const filterId = values[i * RANK_FIELDS + 2]!;
      if (values[i * RANK_FIELDS] === 0 || filterId === NO_GAME) return null;
      const name = filters.nameOf(filterId);
      if (!name) return null;
      let held = gameNameJson.get(filterId);
      if (held?.name !== name) gameNameJson.set(filterId, (held = { name, json: Buffer.from(JSON.stringify(name)) }));
      return held.json;
    });
    return { values, gameNames };
  };

  /** One page from the search index: ids and exact total from memory, the cards from the card cache or one query. */
  const indexedPage = async (options: ListOptions) => {
    const index = await search.fresh();
    const found = index.query(options);
    const shown = await cards.cards(found.ids, loadCards);
    const ids = shown.map((card) => card.id);
    const ranks = pageRanks(index, ids);
    return {
      body: cachedBody(listSource(shown, ranks), { quick: true, digest: listDigest(shown, ranks) }),
      total: found.total,
      capped: false,
      ids,
    };
  };

  return {
    /** The search index as it syncs with the database. */
    search,
    /** The cards held in memory. */
    cards,
    rankOf,
    loadedIndex,
    /** One page of a list, as bytes with its ETag, the exact total and the servers it shows. */
    page: indexedPage,

    /**
     * A server's card as lists show it, with its rank as the index has it now (undefined when not
     * listed): held when a vote set its counters, else read with the others asked for together.
     */
    async freshCard(id: number): Promise<string | undefined> {
      // A vote updated its held card in place; anything else dropped it and it is read afresh, one
      // `cardsByIds` query for the joins and votes that end together (see `batcher`).
      const json = cards.peek(id) ?? (await freshCards.add(id));
      return json === undefined ? undefined : withRank(json, JSON.stringify(rankOf(search.current(), id)));
    },

    /** Starts loading the index, then every listed server's card, and keeps them fresh. */
    start(): void {
      search.warmUp();
      refresher.start();
    },
    /** Reads every listed server's missing card now; true once none is missing, false after `timeoutMs` or a failed read. */
    whenCardsHeld: (timeoutMs: number): Promise<boolean> => refresher.fill(timeoutMs),
    /** Stops refreshing cards and reading the index's changes; resolves once the reads under way are done. */
    async stop(): Promise<void> {
      await refresher.stop();
      await search.settled();
    },
  };
}

/** What lists are answered from, as the discovery service uses it. */
export type IndexedLists = ReturnType<typeof indexedLists>;
