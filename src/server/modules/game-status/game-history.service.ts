import type { InTransaction } from '../../db/transaction';
import type { History, HistoryRange } from '../../../shared/schemas/game-status';
import { MSG } from '../../../shared/messages';
import { notFound } from '../../errors';
import { cachedBody, type CachedBody } from '../../lib/cached-body';
import { ResponseCache } from '../../lib/response-cache';
import { gameStatusPolicy } from '../../policies/game-status.policy';
import { serverTags } from '../servers';
import type { GameStatusRepository, HistoryRow } from './game-status.repository';

const RANGE_MS: Record<HistoryRange, number> = { '24h': 86400_000, '7d': 7 * 86400_000, '30d': 30 * 86400_000 };

/**
 * Histories held at once. A month's history is up to ~2,000 points (~110 KB of JSON); most held
 * ones are a day's (~480 points at one poll every 3 minutes, ~26 KB).
 */
const HISTORIES_HELD = 128;

/** What the history needs: its queries, transactions and a clock. */
export interface HistoryDeps {
  repo: GameStatusRepository;
  inTransaction: InTransaction;
  now: () => Date;
  /** How long an answer is held (as lists are; 0: never). */
  historyCacheTtlMs?: number;
}

/**
 * A range's answer as the API writes it: the fields through `JSON.stringify` in the schema's order,
 * the points as the statement wrote them spliced in. Uptime = online samples / samples.
 */
function historyJson(range: HistoryRange, row: Omit<HistoryRow, 'hidden'>): string {
  const { samples, onlineSamples, weighted, peak } = row;
  const rest: Omit<History, 'points'> & { points: [] } = {
    range,
    points: [],
    average: samples ? Math.round((weighted / samples) * 10) / 10 : 0,
    peak,
    uptimePercent: samples ? Math.round((onlineSamples / samples) * 1000) / 10 : null,
  };
  const text = JSON.stringify(rest);
  const at = text.indexOf(EMPTY_POINTS) + EMPTY_POINTS.length - 1;
  return text.slice(0, at) + row.points + text.slice(at);
}

/** Where the points go, in the answer written without them. */
const EMPTY_POINTS = '"points":[]';

/** Player-count history: read over a range, and downsampled as it ages so storage stays bounded. */
export function gameHistory({ repo, inTransaction, now, historyCacheTtlMs = 0 }: HistoryDeps) {
  // Every visitor of a server page asks for its history: held like the page, by server and range,
  // and tagged by the server, so a poll's new sample or any change to the server drops it. Kept
  // from the second ask: a page opened once (a crawl, a shared link's one visitor) keeps nothing.
  const held = new ResponseCache<CachedBody | null>(historyCacheTtlMs, HISTORIES_HELD, { keepFromSecondAsk: true });
  const load = async (id: number, range: HistoryRange): Promise<CachedBody | null> => {
    const found = await repo.historyOf(id, new Date(now().getTime() - RANGE_MS[range]));
    if (!found || !gameStatusPolicy.canSeeHistory(found)) return null;
    // Compressed quick (as server pages are): most are sent once, to a page's one visitor.
    return cachedBody(historyJson(range, found), { quick: true });
  };

  return {
    /** Keeps storage bounded: raw samples become hourly after 2 days, hourly become daily after 30. */
    async downsample(): Promise<void> {
      const roll = async (from: 'raw' | 'hour', to: 'hour' | 'day', olderThanMs: number) => {
        const cutoff = new Date(now().getTime() - olderThanMs);
        await inTransaction(async (tx) => {
          await repo.rollUpSamples(from, to, cutoff, tx);
          await repo.deleteSamplesBefore(from, cutoff, tx);
        });
      };
      await roll('raw', 'hour', 2 * 86400_000);
      await roll('hour', 'day', 30 * 86400_000);
      // The week's and the month's answers now read the rolled-up samples.
      held.clear();
    },

    /**
     * History over a range, from whatever resolution holds it, as the answer's bytes; 404 for a
     * server that does not exist or is hidden.
     */
    async historyBody(id: number, range: HistoryRange): Promise<CachedBody> {
      const body = await held.get(
        `${id}:${range}`,
        () => load(id, range),
        () => serverTags([id]),
      );
      if (!body) throw notFound(MSG.serverNotFound);
      return body;
    },

    /** Drops the held histories of these servers (a poll wrote samples, a server changed), or all of them. */
    forgetHistory(serverIds: readonly number[] | 'all'): void {
      if (serverIds === 'all') held.clear();
      else held.dropTags(serverTags(serverIds));
    },
  };
}
