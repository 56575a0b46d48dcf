import type { FastifyBaseLogger } from 'fastify';
import { doneWithin } from '../../lib/done-within';
import { SearchIndex } from './search-index';
import type { SearchIndexRepository } from './search-index.repository';
import type { ChangedRow } from './search-index.types';

/** Rows read per query of the first load. */
const LOAD_PAGE = 5000;
/** The share of the freshness time after which a search starts the next read without waiting for it. */
const EARLY_READ_AT = 0.8;

interface Deps {
  repository: SearchIndexRepository;
  /**
   * How long the index may go without asking the database for changes nobody told it about
   * (another instance without Redis, a row written behind the app's back). 0: before every query (the tests).
   */
  freshForMs: number;
  /** Told the rows written and the ids deleted since the last read (cached cards may be stale). */
  onRowsChanged?: (rows: readonly ChangedRow[], deleted: readonly number[]) => void;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  /** The Game category's filter ids, for ranks within a game. */
  gameFilters?: readonly number[];
}

/**
 * Keeps the in-memory search index equal to the `servers` table: loads it once, then reads only
 * the rows written since (docs/decisions/028-search-index.md). A change this instance makes, or
 * hears of from another (Redis), marks the index stale, so the next search reads the change first:
 * a player sees their own vote move the list at once.
 */
export function searchIndexSync({ repository, freshForMs, onRowsChanged, log, gameFilters = [] }: Deps) {
  const index = new SearchIndex();
  index.setGameFilters(gameFilters);
  let watermark: string | undefined;
  /**
   * Generations: each change asks for one; a read covers every one asked for before it started.
   * Searches wait for `required`; a read started early is one they need not wait for.
   */
  let requested = 1;
  let required = 1;
  let synced = 0;
  let syncedAt = -Infinity;
  let running: Promise<void> | undefined;

  /** The read under way, or a new one: one at a time. */
  const read = (): Promise<void> =>
    (running ??= readChanges().finally(() => {
      running = undefined;
    }));

  const readChanges = async () => {
    const generation = requested;
    if (watermark === undefined) {
      // In pages, so the rows read never all sit in memory at once (the peak RSS counts).
      const from = await repository.watermark();
      for (let after = 0; ;) {
        const rows = await repository.loadPage(after, LOAD_PAGE);
        index.load(rows);
        if (rows.length < LOAD_PAGE) break;
        after = rows.at(-1)!.id;
      }
      index.finishLoad();
      watermark = from;
    } else {
      const delta = await repository.changesSince(watermark);
      index.upsertMany(delta.rows);
      for (const id of delta.deleted) index.remove(id);
      watermark = delta.watermark;
      if (delta.rows.length > 0 || delta.deleted.length > 0) onRowsChanged?.(delta.rows, delta.deleted);
    }
    synced = generation;
    syncedAt = Date.now();
  };

  return {
    /** Whether the first load is done (until then the list is answered by SQL). */
    // eslint-disable-next-line no-restricted-syntax -- made once per app, not per request
    get loaded(): boolean {
      return watermark !== undefined;
    },

    /** The index as it stands, without reading changes first; undefined until loaded. */
    current(): SearchIndex | undefined {
      return watermark === undefined ? undefined : index;
    },

    /**
     * The index with every change it must show read in. Past most of the freshness time, a search
     * starts the read of unannounced changes and answers without waiting for it: under steady
     * traffic the read lands before the time runs out, so no search waits on it (each such wait
     * held every search in flight for the read's round trip). Past the whole time, or after a
     * change was announced, searches wait as before.
     */
    async fresh(): Promise<SearchIndex> {
      const age = Date.now() - syncedAt;
      if (freshForMs <= 0) required = ++requested;
      else if (age >= freshForMs) {
        // A read under way started late in the time: it covers what this search must show.
        if (requested === synced) requested++;
        required = requested;
      } else if (age >= freshForMs * EARLY_READ_AT && requested === synced) {
        requested++;
        void read().catch((err: unknown) =>
          log?.warn({ err }, 'search index read failed; it is tried again when the freshness time runs out'),
        );
      }
      while (synced < required) await read();
      return index;
    },

    /** Resolves once the read under way, if any, is done (shutting down: before the database closes). */
    async settled(): Promise<void> {
      await running?.catch(() => undefined);
    },

    /** Something changed: the next `fresh` reads the database first. */
    markStale(): void {
      required = ++requested;
    },

    /** Whether the first load is done; if not, starts one unless one is under way (an earlier one may have failed). */
    loadedElseLoad(): boolean {
      if (watermark === undefined) this.warmUp();
      return watermark !== undefined;
    },

    /** Resolves true once the first load is done, false after `timeoutMs` or when the load fails. */
    async whenLoaded(timeoutMs: number): Promise<boolean> {
      if (watermark !== undefined) return true;
      return doneWithin(
        this.fresh().then(() => true),
        timeoutMs,
      );
    },

    /** Loads the index in the background (start-up); a failure is retried by the next search. */
    warmUp(): void {
      void this.fresh().catch((err: unknown) => log?.warn({ err }, 'search index load failed; searching by SQL until it loads'));
    },
  };
}

/** The search index and its sync, as the discovery service receives them. */
export type SearchIndexSync = ReturnType<typeof searchIndexSync>;
