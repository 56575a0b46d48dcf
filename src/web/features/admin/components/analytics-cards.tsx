import { BarChart } from '../../../components/bar-chart';
import { Panel } from '../../../components/panel';
import { StatCard } from '../../../components/stat-card';
import { useT } from '../../../i18n/use-t';
import { formatNumber as n } from '../../../lib/format';
import { useAnalytics } from '../api/get-analytics';
import { LoadState } from './load-state';

/** Headline numbers from `GET /api/admin/analytics` and signups per day. */
export function AnalyticsCards() {
  const { t } = useT();
  const { data, isPending, isError } = useAnalytics();
  if (!data) return <LoadState pending={isPending} error={isError} failed="admin.load.analytics" height="h-28" />;
  const users = data.users.player + data.users.server_owner + data.users.admin;
  return (
    <section aria-label={t('admin.stats.label')} className="flex flex-col gap-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="admin-stats">
        <StatCard
          label={t('admin.stats.users')}
          value={n(users)}
          hint={t('admin.stats.usersHint', { players: data.users.player, owners: data.users.server_owner })}
        />
        <StatCard label={t('admin.stats.servers')} value={n(data.servers)} />
        <StatCard label={t('admin.stats.joins')} value={n(data.joins)} />
        <StatCard label={t('admin.stats.boosts')} value={n(data.boosts)} />
        <StatCard label={t('admin.stats.likes')} value={n(data.likes)} />
        <StatCard label={t('admin.stats.dislikes')} value={n(data.dislikes)} />
        <StatCard label={t('admin.stats.pushPromotions')} value={n(data.pushPromotions)} />
        <StatCard label={t('admin.stats.admins')} value={n(data.users.admin)} />
      </dl>
      {data.signups.length > 0 ? (
        <Panel id="signups-heading" title={t('admin.signups.title')}>
          <BarChart
            title={t('admin.signups.chart')}
            rows={data.signups}
            series={[{ key: 'count', label: t('admin.signups.series'), color: '#a78bfa' }]}
            height={140}
            testId="signups-chart"
          />
        </Panel>
      ) : null}
    </section>
  );
}
