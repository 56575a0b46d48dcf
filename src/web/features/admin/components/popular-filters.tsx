import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { useFilterLabels } from '../../../i18n/filter-label';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';
import { usePopularFilters } from '../api/get-popular-filters';
import { LoadState } from './load-state';

/** The top 10 filters players searched with in the last 30 days, as horizontal bars. */
export function PopularFilters() {
  const { t } = useT();
  const label = useFilterLabels();
  const { data, isPending, isError } = usePopularFilters();
  const max = Math.max(1, ...(data ?? []).map((f) => f.count));
  return (
    <Panel id="filters-heading" title={t('admin.filters.title')} description={t('admin.filters.description')}>
      {!data ? (
        <LoadState pending={isPending} error={isError} failed="admin.load.filters" />
      ) : data.length === 0 ? (
        <EmptyState title={t('admin.filters.empty.title')}>{t('admin.filters.empty.text')}</EmptyState>
      ) : (
        <ol className="flex flex-col gap-2" data-testid="popular-filters">
          {data.map((f, i) => (
            <li key={f.filter} className="grid grid-cols-[1.5rem_minmax(0,1fr)_3rem] items-center gap-2 text-sm">
              <span className="text-right tabular-nums text-slate-500">{i + 1}</span>
              <div
                className="relative overflow-hidden rounded-lg bg-white/5 px-3 py-1.5"
                title={t('admin.filters.searches', { filter: label.filter(f.filter), count: f.count })}
              >
                <span
                  aria-hidden="true"
                  className="absolute inset-y-0 left-0 bg-gradient-to-r from-brand-600/60 to-accent-500/40"
                  style={{ width: `${(f.count / max) * 100}%` }}
                />
                <span className="relative block truncate text-slate-100">{label.filter(f.filter)}</span>
              </div>
              <span className="text-right font-semibold tabular-nums text-white">{formatNumber(f.count)}</span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
