import { useState } from 'react';
import type { Revenue } from '../../../../shared/schemas/admin';
import { BarChart } from '../../../components/bar-chart';
import { Panel } from '../../../components/panel';
import { Segmented } from '../../../components/segmented';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT } from '../../../i18n/use-t';
import { formatUsd } from '../../../lib/format';
import { useRevenue } from '../api/get-revenue';
import { LoadState } from './load-state';

type RevenueType = 'playerBoost' | 'ownerBoost' | 'subscription' | 'serverOfTheWeekend';
type Period = 'daily' | 'weekly' | 'monthly';

const TYPES: ReadonlyArray<{ key: RevenueType; label: MessageId; color: string }> = [
  { key: 'subscription', label: 'admin.revenue.type.subscription', color: '#a78bfa' },
  { key: 'ownerBoost', label: 'admin.revenue.type.ownerBoost', color: '#fbbf24' },
  { key: 'playerBoost', label: 'admin.revenue.type.playerBoost', color: '#f472b6' },
  { key: 'serverOfTheWeekend', label: 'admin.revenue.type.serverOfTheWeekend', color: '#34d399' },
];
const PERIODS: ReadonlyArray<{ value: Period; label: MessageId }> = [
  { value: 'daily', label: 'admin.revenue.period.daily' },
  { value: 'weekly', label: 'admin.revenue.period.weekly' },
  { value: 'monthly', label: 'admin.revenue.period.monthly' },
];

const sum = (r: Revenue['daily']) => TYPES.reduce((s, t) => s + r[t.key], 0);

/** Revenue by type: totals for a day, a week and a month, and the last 30 days stacked by type. */
export function RevenuePanel() {
  const { t } = useT();
  const { data, isPending, isError } = useRevenue();
  const [period, setPeriod] = useState<Period>('monthly');
  const types = TYPES.map((type) => ({ ...type, label: t(type.label) }));
  const periods = PERIODS.map((p) => ({ ...p, label: t(p.label) }));
  return (
    <Panel
      id="revenue-heading"
      title={t('admin.revenue.title')}
      description={t('admin.revenue.description')}
      action={<Segmented label={t('admin.revenue.periodLabel')} options={periods} value={period} onChange={setPeriod} />}
    >
      {data ? (
        <div className="flex flex-col gap-6" data-testid="revenue">
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
            <div className="col-span-2 flex flex-col gap-1 rounded-2xl border border-brand-400/30 bg-brand-500/10 p-4 lg:col-span-1">
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-300">{t('admin.revenue.total')}</dt>
              <dd className="text-2xl font-black tabular-nums text-white" data-testid="revenue-total">
                {formatUsd(sum(data[period]))}
              </dd>
            </div>
            {types.map((type) => (
              <div key={type.key} className="flex min-w-0 flex-col gap-1 rounded-2xl border border-white/10 bg-ink-950/40 p-4">
                <dt className="flex min-w-0 items-start gap-2 break-words text-xs font-semibold uppercase tracking-wide text-slate-400">
                  <span aria-hidden="true" className="mt-1 size-2 shrink-0 rounded-full" style={{ backgroundColor: type.color }} />
                  {type.label}
                </dt>
                <dd className="text-xl font-bold tabular-nums text-white">{formatUsd(data[period][type.key])}</dd>
              </div>
            ))}
          </dl>
          <BarChart
            title={t('admin.revenue.chart')}
            rows={data.series}
            series={types}
            format={formatUsd}
            height={220}
            testId="revenue-chart"
          />
        </div>
      ) : (
        <LoadState pending={isPending} error={isError} failed="admin.load.revenue" height="h-64" />
      )}
    </Panel>
  );
}
