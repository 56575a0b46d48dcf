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
import { useOwnServers } from '../../servers';
import { useServerStats, type StatsRange } from '../api/get-server-stats';
import { METRICS, VOTE_STANDING, votesByStanding } from './metrics';
import { PushPromotionPanel } from './push-promotion-panel';

const RANGES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
] as const;

/** `/stats` (owners): views, joins, likes, dislikes and boosts per day of one server, and push promotions. */
export function StatsPage() {
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
          {MSG.loadServersFailed}
        </p>
      </Shell>
    );
  }
  if (servers.data.length === 0) {
    return (
      <Shell>
        <EmptyState title={MSG.noServers} action={<ButtonLink to="/quick-create">Create your server</ButtonLink>}>
          Stats and push promotions are per server. Create one first; it is free.
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
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-black tracking-tight text-white">Stats</h1>
          <p className="text-slate-400">How players find and play your servers, day by day (UTC).</p>
        </div>
        {picker}
      </header>
      {children}
    </div>
  );
}

/** Two or three servers fit as buttons; more fall back to a select. */
function ServerPicker({ servers, value, onChange }: { servers: readonly Server[]; value: string; onChange: (id: string) => void }) {
  if (servers.length === 1) return null;
  if (servers.length <= 3) {
    return <Segmented label="Server" options={servers.map((s) => ({ value: s.id, label: s.name }))} value={value} onChange={onChange} />;
  }
  return (
    <SelectField
      label="Server"
      options={servers.map((s) => ({ value: s.id, label: s.name }))}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function ServerStatsView({ server }: { server: Server }) {
  const [range, setRange] = useState<StatsRange>(7);
  const { data, isPending, isError, isPlaceholderData } = useServerStats(server.id, range);
  return (
    <Panel
      id="stats-heading"
      title={server.name}
      description={`The last ${range} days`}
      action={
        <Segmented
          label="Period"
          options={RANGES}
          value={String(range) as '7' | '30'}
          onChange={(v) => setRange(Number(v) as StatsRange)}
        />
      }
    >
      {isPending ? (
        <div className="grid gap-4 sm:grid-cols-2" aria-busy="true" aria-label="Loading stats">
          <Skeleton className="h-24 sm:col-span-2" />
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      ) : isError ? (
        <p role="alert" className="text-sm text-red-300">
          Failed to load stats.
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
                label={m.label}
                accent={m.color}
                value={data.totals[m.key].toLocaleString()}
                hint={`${data.allTime[m.key].toLocaleString()} all time`}
              />
            ))}
          </dl>
          <div className="grid gap-6 md:grid-cols-2">
            {METRICS.map((m) => (
              <div key={m.key} className={`min-w-0 ${m.key === 'views' ? 'md:col-span-2' : ''}`}>
                <BarChart title={`${m.label} per day`} rows={data.days} series={[m]} testId={`chart-${m.key}`} />
              </div>
            ))}
            <div className="min-w-0 md:col-span-2">
              <BarChart
                title={`Votes and joins per day: ${data.totals.held} held, ${data.totals.voided} voided`}
                rows={data.days.map(votesByStanding)}
                series={VOTE_STANDING}
                testId="chart-standing"
              />
              <p className="mt-2 text-xs text-slate-400">
                Held votes wait for a check by our team and count nowhere until then; voided ones came in a pattern no crowd of real players
                makes and were removed (they stay on record).
              </p>
            </div>
          </div>
        </div>
      )}
    </Panel>
  );
}
