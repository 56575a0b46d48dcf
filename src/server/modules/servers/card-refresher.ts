import type { FastifyBaseLogger } from 'fastify';
import { doneWithin } from '../../lib/done-within';
import type { CardCache, LoadCards } from './card-cache';
import type { SearchIndexSync } from './search-index.sync';

/** Cards read per query (a few milliseconds of the event loop), and how often it looks for missing or ageing cards. */
const BATCH = 100;
const EVERY_MS = 2000;

/**
 * Keeps every listed server's card in memory and read within half the card time: an uncached
 * search then joins cards without asking the database. Small batches with the event loop free
 * between them, ageing cards at a steady rate (they were mostly read at once, at start-up), so
 * requests never wait long behind it (docs/decisions/028-search-index.md).
 */
export function cardRefresher({
  cards,
  search,
  load,
  cardTtlMs,
  log,
}: {
  cards: CardCache;
  search: Pick<SearchIndexSync, 'loaded' | 'fresh'>;
  load: LoadCards;
  cardTtlMs: number;
  log?: Pick<FastifyBaseLogger, 'warn'> | undefined;
}) {
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;

  const refresh = async () => {
    if (refreshing || !search.loaded) return;
    refreshing = refreshCards().finally(() => {
      refreshing = undefined;
    });
    await refreshing;
  };

  const refreshCards = async () => {
    try {
      const index = await search.fresh();
      // With as many cards as listed servers (the usual state) none is missing: no walk over
      // every listed id (100,000 at the benchmark's size) every few seconds. A card held for a
      // server no longer listed can hide one missing until it is dropped; a page reads it anyway.
      const missing = cards.size < index.listedCount ? cards.missing(index.listedIds()) : [];
      // Due at half the card time, each read again within the next quarter: before it expires.
      let ageingLeft = Math.ceil((cards.size * EVERY_MS) / (cardTtlMs / 4));
      for (let at = 0; timer;) {
        let batch = missing.slice(at, at + BATCH);
        at += batch.length;
        if (batch.length === 0) {
          batch = cards.ageing(cardTtlMs / 2, Math.min(BATCH, ageingLeft));
          ageingLeft -= batch.length;
        }
        if (batch.length === 0) break;
        await cards.refresh(batch, load);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      log?.warn({ err }, 'card refresh failed; cards are read with their pages until it works again');
    }
  };

  return {
    /** Starts looking every few seconds (nothing when cards are not kept). */
    start(): void {
      if (cardTtlMs <= 0 || timer) return;
      timer = setInterval(() => void refresh(), EVERY_MS);
      timer.unref();
    },
    /**
     * Reads every listed server's missing card now instead of at the next look, and resolves once
     * none is missing (true; at once when cards are not kept), or after `timeoutMs`, when a read
     * failed or when it was never started (false). At start-up, before the instance listens:
     * otherwise its first seconds of requests shared the thread with 100,000 cards' reads and
     * waited on the cards their answers lacked (docs/decisions/072-cards-before-listening.md). A
     * timeout leaves the reads going on.
     */
    async fill(timeoutMs: number): Promise<boolean> {
      // Not kept (the tests): none to read.
      if (cardTtlMs <= 0) return true;
      if (!timer || !search.loaded) return false;
      const filled = async () => {
        // A look under way may have listed what was missing before the latest changes: one more after it.
        while (refreshing) await refreshing;
        await refresh();
        return cards.size >= (await search.fresh()).listedCount;
      };
      return doneWithin(filled(), timeoutMs);
    },
    /**
     * Stops; a batch under way finishes, no other starts. Resolves once it has: the database must
     * stay open until then (closing it under the batch made it fail at every shutdown under load).
     */
    stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      return refreshing ?? Promise.resolve();
    },
  };
}
