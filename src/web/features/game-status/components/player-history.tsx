import { useState } from 'react';
import type { History } from '../../../../shared/schemas/game-status';
import { Segmented } from '../../../components/segmented';
import { Skeleton } from '../../../components/skeleton';
import { usePlayerHistory } from '../api/get-player-history';
import { PlayerLineChart } from './player-line-chart';

const RANGES: ReadonlyArray<{ value: History['range']; label: string }> = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
];

/** The server page's player-count history from the game itself: chart, average, peak and uptime. */
export function PlayerHistory({ serverId }: { serverId: string }) {
  const [range, setRange] = useState<History['range']>('24h');
  const history = usePlayerHistory(serverId, range);
  return (
    <section aria-labelledby="player-history" className="flex flex-col gap-3" data-testid="player-history">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="player-history" className="text-lg font-semibold">
          Players over time
        </h2>
        <Segmented label="History range" options={RANGES} value={range} onChange={setRange} />
      </div>
      {history.isPending ? (
        <Skeleton className="h-44 w-full" />
      ) : history.isError ? (
        <p className="text-sm text-red-300">Failed to load the player history.</p>
      ) : history.data.points.length === 0 ? (
        <p className="text-sm text-slate-400">
          No live status yet: the owner has not connected the game server, or it has not been asked yet.
        </p>
      ) : (
        <>
          <PlayerLineChart points={history.data.points} />
          <dl className="grid grid-cols-3 gap-2 text-sm">
            {[
              ['Average', history.data.average.toLocaleString()],
              ['Peak', history.data.peak.toLocaleString()],
              ['Uptime', history.data.uptimePercent === null ? '—' : `${history.data.uptimePercent}%`],
            ].map(([label, value]) => (
              <div key={label} className="rounded-xl border border-white/10 bg-white/5 px-3 py-2">
                <dt className="text-xs text-slate-400">{label}</dt>
                <dd className="text-base font-semibold tabular-nums" data-testid={`history-${label!.toLowerCase()}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}
