import type { InTransaction } from '../../db/transaction';
import type { History, HistoryRange } from '../../../shared/schemas/game-status';
import { MSG } from '../../../shared/messages';
import { notFound } from '../../errors';
import { gameStatusPolicy } from '../../policies/game-status.policy';
import type { GameStatusRepository } from './game-status.repository';

const RANGE_MS: Record<HistoryRange, number> = { '24h': 86400_000, '7d': 7 * 86400_000, '30d': 30 * 86400_000 };

/** What the history needs: its queries, transactions and a clock. */
export interface HistoryDeps {
  repo: GameStatusRepository;
  inTransaction: InTransaction;
  now: () => Date;
}

/** Player-count history: read over a range, and downsampled as it ages so storage stays bounded. */
export function gameHistory({ repo, inTransaction, now }: HistoryDeps) {
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
    },

    /** History over a range, from whatever resolution holds it; uptime = online samples / samples. */
    async history(id: number, range: HistoryRange): Promise<History> {
      const server = await repo.findServerVisibility(id);
      if (!server) throw notFound(MSG.serverNotFound);
      gameStatusPolicy.assertCanSeeHistory(server);
      const rows = await repo.samplesSince(server.id, new Date(now().getTime() - RANGE_MS[range]));
      const samples = rows.reduce((n, r) => n + r.samples, 0);
      const online = rows.reduce((n, r) => n + r.onlineSamples, 0);
      const weighted = rows.reduce((n, r) => n + r.players * r.samples, 0);
      return {
        range,
        points: rows.map((r) => ({ t: r.sampledAt.toISOString(), players: r.players, online: r.online })),
        average: samples ? Math.round((weighted / samples) * 10) / 10 : 0,
        peak: rows.reduce((m, r) => Math.max(m, r.players), 0),
        uptimePercent: samples ? Math.round((online / samples) * 1000) / 10 : null,
      };
    },
  };
}
