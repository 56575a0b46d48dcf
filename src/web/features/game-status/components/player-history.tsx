import { useState } from 'react';
import type { History } from '../../../../shared/schemas/game-status';
import { Segmented } from '../../../components/segmented';
import { Skeleton } from '../../../components/skeleton';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT } from '../../../i18n/use-t';
import { formatNumber, numberFormat } from '../../../lib/format';
import { usePlayerHistory } from '../api/get-player-history';
import { PlayerLineChart } from './player-line-chart';

const RANGES: ReadonlyArray<{ value: History['range']; label: MessageId }> = [
  { value: '24h', label: 'server.history.range24h' },
  { value: '7d', label: 'server.history.range7d' },
  { value: '30d', label: 'server.history.range30d' },
];

/** The server page's player-count history from the game itself: chart, average, peak and uptime. */
export function PlayerHistory({ serverId }: { serverId: string }) {
  const { t } = useT();
  const [range, setRange] = useState<History['range']>('24h');
  const history = usePlayerHistory(serverId, range);
  return (
    <section aria-labelledby="player-history" className="flex flex-col gap-3" data-testid="player-history">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="player-history" className="text-lg font-semibold">
          {t('server.history.title')}
        </h2>
        <Segmented
          label={t('server.history.rangeLabel')}
          options={RANGES.map((r) => ({ value: r.value, label: t(r.label) }))}
          value={range}
          onChange={setRange}
        />
      </div>
      {history.isPending ? (
        <Skeleton className="h-44 w-full" />
      ) : history.isError ? (
        <p className="text-sm text-red-300">{t('server.history.failed')}</p>
      ) : history.data.points.length === 0 ? (
        <p className="text-sm text-slate-400">{t('server.history.empty')}</p>
      ) : (
        <>
          <PlayerLineChart points={history.data.points} />
          <dl className="grid grid-cols-3 gap-2 text-sm">
            {(
              [
                ['average', t('server.history.average'), formatNumber(history.data.average)],
                ['peak', t('server.history.peak'), formatNumber(history.data.peak)],
                [
                  'uptime',
                  t('server.history.uptime'),
                  history.data.uptimePercent === null
                    ? '—'
                    : numberFormat({ style: 'percent', maximumFractionDigits: 2 }).format(history.data.uptimePercent / 100),
                ],
              ] as const
            ).map(([key, label, value]) => (
              <div key={key} className="rounded-xl border border-white/10 bg-white/5 px-3 py-2">
                <dt className="text-xs text-slate-400">{label}</dt>
                <dd className="text-base font-semibold tabular-nums" data-testid={`history-${key}`}>
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
