import { useState } from 'react';
import type { Revenue } from '../../../../shared/schemas/admin';
import { BarChart } from '../../../components/bar-chart';
import { Panel } from '../../../components/panel';
import { Segmented } from '../../../components/segmented';
import { formatUsd } from '../../../lib/format';
import { useRevenue } from '../api/get-revenue';
import { LoadState } from './load-state';

type RevenueType = 'playerBoost' | 'ownerBoost' | 'subscription' | 'serverOfTheWeekend';
type Period = 'daily' | 'weekly' | 'monthly';

const TYPES: ReadonlyArray<{ key: RevenueType; label: string; color: string }> = [
  { key: 'subscription', label: 'Subscriptions', color: '#a78bfa' },
  { key: 'ownerBoost', label: 'Owner boosts', color: '#fbbf24' },
  { key: 'playerBoost', label: 'Player boosts', color: '#f472b6' },
  { key: 'serverOfTheWeekend', label: 'Server of the Weekend', color: '#34d399' },
];
const PERIODS: ReadonlyArray<{ value: Period; label: string }> = [
  { value: 'daily', label: 'Today' },
  { value: 'weekly', label: '7 days' },
  { value: 'monthly', label: '30 days' },
];

const sum = (r: Revenue['daily']) => TYPES.reduce((s, t) => s + r[t.key], 0);

/** Revenue by type: totals for a day, a week and a month, and the last 30 days stacked by type. */
export function RevenuePanel() {
  const { data, isPending, isError } = useRevenue();
  const [period, setPeriod] = useState<Period>('monthly');
  return (
    <Panel
      id="revenue-heading"
      title="Revenue"
      description="Paid payments; refunds and disputes are taken out."
      action={<Segmented label="Revenue period" options={PERIODS} value={period} onChange={setPeriod} />}
    >
      {data ? (
        <div className="flex flex-col gap-6" data-testid="revenue">
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
            <div className="col-span-2 flex flex-col gap-1 rounded-2xl border border-brand-400/30 bg-brand-500/10 p-4 lg:col-span-1">
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-300">Total</dt>
              <dd className="text-2xl font-black tabular-nums text-white" data-testid="revenue-total">
                {formatUsd(sum(data[period]))}
              </dd>
            </div>
            {TYPES.map((t) => (
              <div key={t.key} className="flex min-w-0 flex-col gap-1 rounded-2xl border border-white/10 bg-ink-950/40 p-4">
                <dt className="flex min-w-0 items-start gap-2 break-words text-xs font-semibold uppercase tracking-wide text-slate-400">
                  <span aria-hidden="true" className="mt-1 size-2 shrink-0 rounded-full" style={{ backgroundColor: t.color }} />
                  {t.label}
                </dt>
                <dd className="text-xl font-bold tabular-nums text-white">{formatUsd(data[period][t.key])}</dd>
              </div>
            ))}
          </dl>
          <BarChart
            title="Revenue per day, last 30 days"
            rows={data.series}
            series={TYPES}
            format={formatUsd}
            height={220}
            testId="revenue-chart"
          />
        </div>
      ) : (
        <LoadState pending={isPending} error={isError} label="revenue" height="h-64" />
      )}
    </Panel>
  );
}
