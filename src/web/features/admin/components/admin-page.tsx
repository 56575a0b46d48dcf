import { ButtonLink } from '../../../components/button';
import { useT } from '../../../i18n/use-t';
import { useSession } from '../../../lib/session';
import { AnalyticsCards } from './analytics-cards';
import { ClaimsPanel } from './claims-panel';
import { FraudPanel } from './fraud-panel';
import { PopularFilters } from './popular-filters';
import { ReportsQueue } from './reports-queue';
import { RevenuePanel } from './revenue-panel';
import { ServersPanel } from './servers-panel';
import { TogglesPanel } from './toggles-panel';
import { UsersPanel } from './users-panel';

/** `/admin`: stats, revenue, popular filters, toggles, moderation, fraud review, game address claims, users and servers. */
export function AdminPage() {
  const { t } = useT();
  const session = useSession();
  if (session?.user.role !== 'admin') return <AccessDenied />;
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-black tracking-tight text-white">{t('admin.page.title')}</h1>
          <p className="text-slate-400">{t('admin.page.intro')}</p>
        </div>
        <ButtonLink to="/admin/email" variant="secondary">
          {t('admin.page.massEmail')}
        </ButtonLink>
      </header>
      <AnalyticsCards />
      <RevenuePanel />
      <div className="grid gap-6 lg:grid-cols-2">
        <TogglesPanel />
        <PopularFilters />
      </div>
      <ReportsQueue />
      <FraudPanel />
      <ClaimsPanel />
      <UsersPanel />
      <ServersPanel />
    </div>
  );
}

/** What the admin pages show to anyone else (the guard normally sends them to / first). */
export function AccessDenied() {
  const { t } = useT();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-16">
      <p role="alert" className="rounded-2xl border border-red-500/30 bg-red-500/10 p-6 text-center text-lg font-semibold text-red-200">
        {t('admin.page.accessDenied')}
      </p>
    </div>
  );
}
