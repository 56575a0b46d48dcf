import { MSG } from '../../../../shared/messages';
import { ButtonLink } from '../../../components/button';
import { CheckoutReturnBanner } from '../../../components/checkout-return-banner';
import { EmptyState } from '../../../components/empty-state';
import { PlanBadge } from '../../../components/plan-badge';
import { Skeleton } from '../../../components/skeleton';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { useSession } from '../../../lib/session';
import { useOwnServers } from '../../servers';
import { useQuote } from '../api/get-quote';
import { BoostPanel } from './boost-panel';
import { PaymentHistory } from './payment-history';
import { PlanPanel } from './plan-panel';
import { WeekendPanel } from './weekend-panel';

/** `/payments` (owners): plan, boost packages, Server of the Weekend and payment history. */
export function PaymentsPage() {
  const { t } = useT();
  const plan = useSession()?.user.subscriptionPlan ?? '';
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-black tracking-tight text-white">{t('payments.page.title')}</h1>
        <PlanBadge plan={plan} />
      </header>
      <CheckoutReturnBanner />
      <PlanPanel />
      <Purchases />
      <PaymentHistory />
    </div>
  );
}

/** Boosts and the weekend need prices and at least one server of the owner's. */
function Purchases() {
  const { t } = useT();
  const message = useMessageText();
  const quote = useQuote();
  const servers = useOwnServers();
  if (quote.isPending || servers.isPending) {
    return (
      <div className="flex flex-col gap-6" aria-busy="true" aria-label={t('payments.page.loadingPrices')}>
        <Skeleton className="h-72" />
        <Skeleton className="h-56" />
      </div>
    );
  }
  if (quote.isError || servers.isError) {
    return (
      <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
        {servers.isError ? message(MSG.loadServersFailed) : t('payments.page.pricesFailed')}
      </p>
    );
  }
  if (servers.data.length === 0) {
    return (
      <EmptyState title={message(MSG.noServers)} action={<ButtonLink to="/quick-create">{t('payments.page.createServer')}</ButtonLink>}>
        {t('payments.page.noServers')}
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <BoostPanel quote={quote.data} servers={servers.data} />
      <WeekendPanel quote={quote.data} servers={servers.data} />
    </div>
  );
}
