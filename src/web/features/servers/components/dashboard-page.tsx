import { Link, Navigate, useParams } from 'react-router';
import { MSG } from '../../../../shared/messages';
import { ButtonLink } from '../../../components/button';
import { PlanBadge } from '../../../components/plan-badge';
import { Skeleton } from '../../../components/skeleton';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { useSession } from '../../../lib/session';
import { LiveStatusPanel } from '../../game-status';
import { BoostCreditsNote } from '../../payments';
import { ApiKeysPanel, BannerCodePanel, VoteRewardsPanel } from '../../reach';
import { useOwnServers } from '../api/get-own-servers';
import type { QuickCreateState } from './quick-create-page';
import { ServerEditor } from './server-editor';
import { ServerPicker } from './server-picker';

/**
 * `/dashboard` and `/dashboard/:id`: an owner without a server goes to /quick-create; `/dashboard`
 * opens the first server; the picker switches between up to three.
 */
export function DashboardPage() {
  const { id } = useParams();
  const { t } = useT();
  const message = useMessageText();
  const { data: servers, isPending, isFetching, isError } = useOwnServers();
  const plan = useSession()?.user.subscriptionPlan ?? '';

  // A cached empty list is only trusted once it is fresh: a server may have just been created.
  if (isPending || (servers?.length === 0 && isFetching)) {
    return (
      <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8" aria-busy="true">
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-96" />
      </div>
    );
  }
  if (isError) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-16">
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
          {message(MSG.serverUnavailable)}
        </p>
      </div>
    );
  }
  if (servers.length === 0) return <Navigate to="/quick-create" replace state={{ notice: MSG.noServer } satisfies QuickCreateState} />;
  const first = servers[0];
  if (!id && first) return <Navigate to={`/dashboard/${first.id}`} replace />;
  const server = servers.find((s) => s.id === id);

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-3xl font-black tracking-tight text-white">{t('owner.dashboard.title')}</h1>
            <Link to="/payments" aria-label={plan ? t('owner.dashboard.plan', { plan }) : t('owner.dashboard.noPlan')}>
              <PlanBadge plan={plan} />
            </Link>
          </div>
          <p className="mt-1 text-slate-300">{t('owner.dashboard.intro')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {server ? (
            <ButtonLink to={`/servers/${server.id}`} variant="secondary">
              {t('owner.dashboard.viewPage')}
            </ButtonLink>
          ) : null}
          <ButtonLink to="/quick-create" variant="secondary">
            {t('owner.dashboard.addServer')}
          </ButtonLink>
        </div>
      </header>
      {servers.length > 1 ? <ServerPicker servers={servers} currentId={id} /> : null}
      {server ? (
        <>
          <BoostCreditsNote serverId={server.id} />
          <LiveStatusPanel key={`status-${server.id}`} serverId={server.id} />
          <ServerEditor key={server.id} server={server} />
          <VoteRewardsPanel key={`rewards-${server.id}`} serverId={server.id} />
          <BannerCodePanel key={`banner-${server.id}`} serverId={server.id} name={server.name} />
          <ApiKeysPanel key={`keys-${server.id}`} serverId={server.id} />
        </>
      ) : (
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
          {message(id ? MSG.notYourServer : MSG.serverMissing)}
        </p>
      )}
    </div>
  );
}
