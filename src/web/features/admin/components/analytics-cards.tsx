import { BarChart } from '../../../components/bar-chart';
import { Panel } from '../../../components/panel';
import { StatCard } from '../../../components/stat-card';
import { useAnalytics } from '../api/get-analytics';
import { LoadState } from './load-state';

const n = (v: number) => v.toLocaleString();

/** Headline numbers from `GET /api/admin/analytics` and signups per day. */
export function AnalyticsCards() {
  const { data, isPending, isError } = useAnalytics();
  if (!data) return <LoadState pending={isPending} error={isError} label="analytics" height="h-28" />;
  const users = data.users.player + data.users.server_owner + data.users.admin;
  return (
    <section aria-label="Site stats" className="flex flex-col gap-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="admin-stats">
        <StatCard label="Users" value={n(users)} hint={`${n(data.users.player)} players · ${n(data.users.server_owner)} owners`} />
        <StatCard label="Servers" value={n(data.servers)} />
        <StatCard label="Joins" value={n(data.joins)} />
        <StatCard label="Boosts" value={n(data.boosts)} />
        <StatCard label="Likes" value={n(data.likes)} />
        <StatCard label="Dislikes" value={n(data.dislikes)} />
        <StatCard label="Push promotions" value={n(data.pushPromotions)} />
        <StatCard label="Admins" value={n(data.users.admin)} />
      </dl>
      {data.signups.length > 0 ? (
        <Panel id="signups-heading" title="Signups">
          <BarChart
            title="New accounts per day"
            rows={data.signups}
            series={[{ key: 'count', label: 'Signups', color: '#a78bfa' }]}
            height={140}
            testId="signups-chart"
          />
        </Panel>
      ) : null}
    </section>
  );
}
