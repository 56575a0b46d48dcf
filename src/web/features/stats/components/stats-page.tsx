import { useState } from 'react';
import { MSG } from '../../../../shared/messages';
import type { Server } from '../../../../shared/schemas/server';
import { BarChart } from '../../../components/bar-chart';
import { ButtonLink } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { Panel } from '../../../components/panel';
import { Segmented } from '../../../components/segmented';
import { SelectField } from '../../../components/select-field';
import { Skeleton } from '../../../components/skeleton';
import { StatCard } from '../../../components/stat-card';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';
import { useOwnServers } from '../../servers';
import { useServerStats, type StatsRange } from '../api/get-server-stats';
import { METRICS, VOTE_STANDING, votesByStanding } from './metrics';
import { PushPromotionPanel } from './push-promotion-panel';

const RANGES = [
  { value: '7', label: 'owner.stats.range7' },
  { value: '30', label: 'owner.stats.range30' },
] as const satisfies ReadonlyArray<{ value: string; label: MessageId }>;

/** `/stats` (owners): views, joins, likes, dislikes and boosts per day of one server, and push promotions. */
export function StatsPage() {
  const { t } = useT();
  const message = useMessageText();
  const servers = useOwnServers();
  const [picked, setPicked] = useState('');

  if (servers.isPending) {
    return (
      <Shell>
        <Skeleton className="h-12 w-72" />
        <Skeleton className="h-96" />
      </Shell>
    );
  }
  if (servers.isError) {
    return (
      <Shell>
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
          {message(MSG.loadServersFailed)}
        </p>
      </Shell>
    );
  }
  if (servers.data.length === 0) {
    return (
      <Shell>
        <EmptyState title={message(MSG.noServers)} action={<ButtonLink to="/quick-create">{t('owner.stats.createServer')}</ButtonLink>}>
          {t('owner.stats.emptyText')}
        </EmptyState>
      </Shell>
    );
  }
  const server = servers.data.find((s) => s.id === picked) ?? servers.data[0]!;
  return (
    <Shell picker={<ServerPicker servers={servers.data} value={server.id} onChange={setPicked} />}>
      <ServerStatsView key={server.id} server={server} />
      <PushPromotionPanel server={server} />
    </Shell>
  );
}

function Shell({ picker, children }: { picker?: React.ReactNode; children: React.ReactNode }) {
  const { t } = useT();
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-black tracking-tight text-white">{t('owner.stats.title')}</h1>
          <p className="text-slate-400">{t('owner.stats.intro')}</p>
        </div>
        {picker}
      </header>
      {children}
    </div>
  );
}

/** Two or three servers fit as buttons; more fall back to a select. */
function ServerPicker({ servers, value, onChange }: { servers: readonly Server[]; value: string; onChange: (id: string) => void }) {
  const { t } = useT();
  if (servers.length === 1) return null;
  if (servers.length <= 3) {
    return (
      <Segmented
        label={t('owner.stats.server')}
        options={servers.map((s) => ({ value: s.id, label: s.name }))}
        value={value}
        onChange={onChange}
      />
    );
  }
  return (
    <SelectField
      label={t('owner.stats.server')}
      options={servers.map((s) => ({ value: s.id, label: s.name }))}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function ServerStatsView({ server }: { server: Server }) {
  const { t } = useT();
  const [range, setRange] = useState<StatsRange>(7);
  const { data, isPending, isError, isPlaceholderData } = useServerStats(server.id, range);
  return (
    <Panel
      id="stats-heading"
      title={server.name}
      description={t('owner.stats.lastDays', { count: range })}
      action={
        <Segmented
          label={t('owner.stats.period')}
          options={RANGES.map((r) => ({ value: r.value, label: t(r.label) }))}
          value={String(range) as '7' | '30'}
          onChange={(v) => setRange(Number(v) as StatsRange)}
        />
      }
    >
      {isPending ? (
        <div className="grid gap-4 sm:grid-cols-2" aria-busy="true" aria-label={t('owner.stats.loading')}>
          <Skeleton className="h-24 sm:col-span-2" />
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      ) : isError ? (
        <p role="alert" className="text-sm text-red-300">
          {t('owner.stats.failed')}
        </p>
      ) : (
        <div
          className={`flex flex-col gap-6 transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`}
          data-testid="server-stats-view"
          data-days={data.days.length}
        >
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            {METRICS.map((m) => (
              <StatCard
                key={m.key}
                label={t(m.label)}
                accent={m.color}
                value={formatNumber(data.totals[m.key])}
                hint={t('owner.stats.allTime', { total: formatNumber(data.allTime[m.key]) })}
              />
            ))}
          </dl>
          <div className="grid gap-6 md:grid-cols-2">
            {METRICS.map((m) => (
              <div key={m.key} className={`min-w-0 ${m.key === 'views' ? 'md:col-span-2' : ''}`}>
                <BarChart title={t(m.perDay)} rows={data.days} series={[{ ...m, label: t(m.label) }]} testId={`chart-${m.key}`} />
              </div>
            ))}
            <div className="min-w-0 md:col-span-2">
              <BarChart
                title={t('owner.stats.standingTitle', { held: data.totals.held, voided: data.totals.voided })}
                rows={data.days.map(votesByStanding)}
                series={VOTE_STANDING.map((s) => ({ ...s, label: t(s.label) }))}
                testId="chart-standing"
              />
              <p className="mt-2 text-xs text-slate-400">{t('owner.stats.standingHelp')}</p>
            </div>
          </div>
        </div>
      )}
    </Panel>
  );
}
