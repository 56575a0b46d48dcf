import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '../../../../shared/messages';
import { safeReturnPath } from '../../../../shared/return-path';
import type { CheckoutSession } from '../../../../shared/schemas/payments';
import { Button, ButtonLink } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { FormMessage } from '../../../components/form-message';
import { Skeleton } from '../../../components/skeleton';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useMessageText } from '../../../i18n/messages';
import { T, useT, type Translate } from '../../../i18n/use-t';
import { ApiError, errorText } from '../../../lib/api-client';
import { returnUrl } from '../../../lib/checkout';
import type { CheckoutReturnState } from '../../../lib/use-checkout-return';
import { formatUsd, formatWeekend } from '../../../lib/format';
import { useServer } from '../../servers';
import { useCancelCheckout } from '../api/cancel-checkout';
import { useCompleteCheckout } from '../api/complete-checkout';
import { useCheckout } from '../api/get-checkout';
import { PAYMENT_TYPE_LABELS } from './labels';

/** `/checkout/:id`: the built-in test checkout, used without Stripe keys: what is bought, Pay and Cancel. */
export function CheckoutPage() {
  const { t } = useT();
  const message = useMessageText();
  const { id = '' } = useParams();
  const { data: session, isPending, error } = useCheckout(id);

  return (
    <div className="mx-auto flex w-full max-w-lg flex-col gap-5 px-4 py-8 sm:py-14">
      <p
        role="note"
        data-testid="test-checkout-notice"
        className="flex items-start gap-3 rounded-xl border border-amber-400/40 bg-amber-400/10 px-4 py-3 text-sm text-amber-100"
      >
        <span aria-hidden="true" className="text-lg leading-none">
          ⚠
        </span>
        <span>
          <T id="payments.checkout.testNotice" components={{ strong: <strong className="font-bold" /> }} />
        </span>
      </p>
      {isPending ? (
        <Skeleton className="h-80" />
      ) : error instanceof ApiError && [400, 403, 404].includes(error.status) ? (
        <EmptyState
          title={t('payments.checkout.notFoundTitle')}
          action={<ButtonLink to="/home">{t('payments.checkout.backToSite')}</ButtonLink>}
        >
          {t('payments.checkout.notFound')}
        </EmptyState>
      ) : error || !session ? (
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
          {message(errorText(error, MSG.internal))}
        </p>
      ) : (
        <CheckoutSummary session={session} />
      )}
    </div>
  );
}

function CheckoutSummary({ session }: { session: CheckoutSession }) {
  const { t } = useT();
  const messageText = useMessageText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pay = useCompleteCheckout();
  const cancel = useCancelCheckout();
  const server = useServer(session.serverId ?? undefined);
  const [error, setError] = useState<string | null>(null);
  const busy = pay.isPending || cancel.isPending;

  const onPay = async () => {
    setError(null);
    try {
      const paid = await pay.mutateAsync(session.id);
      await queryClient.invalidateQueries();
      const booked = { ...session, weekendStart: paid.weekendStart ?? session.weekendStart };
      const message = confirmation(t, booked, server.data?.name);
      // Two sentences: the confirmation, then the notice when the weekend moved.
      const state: CheckoutReturnState = { checkoutMessage: paid.notice ? `${message} ${messageText(paid.notice)}` : message };
      await navigate(returnUrl(paid.returnPath || session.returnPath, 'success'), { state });
    } catch (e) {
      setError(errorText(e, MSG.stripePaymentFailed));
    }
  };
  const onCancel = async () => {
    setError(null);
    try {
      const back = await cancel.mutateAsync(session.id);
      await navigate(returnUrl(back ?? session.returnPath, 'canceled'));
    } catch (e) {
      setError(errorText(e, MSG.checkoutClosed));
    }
  };

  return (
    <article
      aria-labelledby="checkout-heading"
      data-testid="checkout-summary"
      className="flex flex-col gap-5 rounded-2xl border border-white/10 bg-ink-900/90 p-6 shadow-2xl shadow-black/40 sm:p-8"
    >
      <div>
        <p className="text-xs font-bold uppercase tracking-wider text-brand-400">{t(PAYMENT_TYPE_LABELS[session.kind])}</p>
        <h1 id="checkout-heading" className="mt-1 text-2xl font-black text-white">
          {session.description}
        </h1>
      </div>
      <dl className="flex flex-col divide-y divide-white/10 rounded-xl border border-white/10 bg-white/[0.03] text-sm">
        {session.serverId ? (
          <Row label={t('payments.checkout.server')}>
            <Link to={`/servers/${session.serverId}`} className="font-semibold text-white hover:underline">
              {server.data?.name ?? (server.isPending ? '…' : t('payments.server.fallback', { id: session.serverId }))}
            </Link>
          </Row>
        ) : null}
        {session.weekendStart ? <Row label={t('payments.checkout.weekend')}>{formatWeekend(session.weekendStart)}</Row> : null}
        {session.notice ? <Row label={t('payments.checkout.note')}>{messageText(session.notice)}</Row> : null}
        {session.kind === 'subscription' ? <Row label={t('payments.checkout.billing')}>{t('payments.checkout.billingMonthly')}</Row> : null}
        <Row label={t('payments.checkout.total')}>
          <span className="text-2xl font-black text-white" data-testid="checkout-amount">
            {formatUsd(session.amount)}
          </span>
          {session.kind === 'subscription' ? <span className="text-slate-400"> {t('payments.price.perMonth')}</span> : null}
        </Row>
      </dl>
      {session.status === 'open' ? (
        <>
          <FormMessage error={error} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => void onCancel()} disabled={busy}>
              {cancel.isPending ? t('payments.checkout.cancelling') : t('payments.checkout.cancel')}
            </Button>
            <Button onClick={() => void onPay()} disabled={busy} className="sm:min-w-40">
              {pay.isPending ? t('payments.checkout.paying') : t('payments.checkout.pay', { price: formatUsd(session.amount) })}
            </Button>
          </div>
        </>
      ) : (
        <Closed session={session} />
      )}
    </article>
  );
}

/** What the page the checkout returns to confirms: what was paid, and for a weekend, which one. */
function confirmation(t: Translate, session: CheckoutSession, serverName: string | undefined): string {
  const price = formatUsd(session.amount);
  if (session.kind === 'serverOfTheWeekend' && session.weekendStart) {
    const weekend = formatWeekend(session.weekendStart);
    return serverName !== undefined
      ? t('payments.checkout.paidWeekend', { price, server: serverName, weekend })
      : t('payments.checkout.paidWeekendYours', { price, weekend });
  }
  if (session.kind === 'subscription') return t('payments.checkout.paidPlan', { price, description: session.description });
  return t('payments.checkout.paid', { price, description: session.description });
}

const CLOSED: Record<'complete' | 'canceled' | 'expired', { title: MessageId; body: MessageId }> = {
  complete: { title: 'payments.checkout.completeTitle', body: 'payments.checkout.complete' },
  canceled: { title: 'payments.checkout.canceledTitle', body: 'payments.checkout.canceled' },
  expired: { title: 'payments.checkout.expiredTitle', body: 'payments.checkout.expired' },
};

function Closed({ session }: { session: CheckoutSession }) {
  const { t } = useT();
  const text = CLOSED[session.status as keyof typeof CLOSED];
  const done = session.status === 'complete';
  return (
    <div
      role="status"
      data-testid={`checkout-${session.status}`}
      className={`flex flex-col gap-3 rounded-xl border px-4 py-4 ${done ? 'border-emerald-500/30 bg-emerald-500/10' : 'border-white/15 bg-white/5'}`}
    >
      <p className={`font-semibold ${done ? 'text-emerald-200' : 'text-white'}`}>{t(text.title)}</p>
      <p className="text-sm text-slate-300">{t(text.body)}</p>
      <ButtonLink to={safeReturnPath(session.returnPath)} variant="secondary" className="self-start">
        {t('payments.checkout.continue')}
      </ButtonLink>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 px-4 py-3">
      <dt className="text-slate-400">{label}</dt>
      <dd className="text-right text-slate-100">{children}</dd>
    </div>
  );
}
