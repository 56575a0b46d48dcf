import { useState } from 'react';
import { PRICES } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { Button, ButtonLink } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { Skeleton } from '../../../components/skeleton';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { formatDate, formatUsd } from '../../../lib/format';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useSubscription } from '../api/get-subscription';
import { PLAN_PRICES, planFeatures } from './plans';
import { SubscribeForm } from './subscribe-form';

/** The owner's current plan, with Cancel (after a confirmation) and a link to change it. */
export function PlanPanel() {
  const { t } = useT();
  const messageText = useMessageText();
  const { data, isPending, isError } = useSubscription();
  const cancel = useCancelSubscription();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string } | null>(null);

  const onCancel = async () => {
    setMessage(null);
    try {
      await cancel.mutateAsync();
      setConfirming(false);
      setMessage({ success: t('payments.plan.cancelled') });
    } catch (error) {
      setConfirming(false);
      setMessage({ error: errorText(error, MSG.cancelFailed) });
    }
  };

  const plan = data?.plan ?? '';
  return (
    <Panel
      id="plan-heading"
      title={t('payments.plan.title')}
      action={
        <ButtonLink to="/subscriptions" variant="secondary">
          {t('payments.plan.compare')}
        </ButtonLink>
      }
    >
      {isPending ? (
        <Skeleton className="h-20" />
      ) : isError ? (
        <p role="alert" className="text-sm text-red-300">
          {messageText(MSG.loadSubscriptionFailed)}
        </p>
      ) : (
        <div className="flex flex-col gap-3" data-testid="current-plan">
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-2xl font-black text-white">
              {plan ? (
                <>
                  {plan}{' '}
                  <span className="text-base font-medium text-slate-400">
                    {t('payments.price.monthly', { price: formatUsd(PLAN_PRICES[plan]) })}
                  </span>
                </>
              ) : (
                t('payments.plan.none')
              )}
            </p>
          </div>
          {plan ? (
            <>
              <ul className="grid gap-1 text-sm text-slate-300 sm:grid-cols-2">
                {planFeatures(plan, t).map((f) => (
                  <li key={f} className="flex gap-2">
                    <span aria-hidden="true" className="text-emerald-400">
                      ✓
                    </span>
                    {f}
                  </li>
                ))}
              </ul>
              <div className="flex flex-wrap items-center justify-between gap-3 border-t border-white/10 pt-3">
                <p className="text-sm text-slate-400">
                  {data.status === 'past_due'
                    ? t('payments.plan.pastDue')
                    : data.currentPeriodEnd
                      ? t('payments.plan.renews', { date: formatDate(data.currentPeriodEnd) })
                      : t('payments.plan.active')}
                </p>
                <Button variant="secondary" className="text-red-200 hover:text-red-100" onClick={() => setConfirming(true)}>
                  {t('payments.plan.cancel')}
                </Button>
              </div>
            </>
          ) : (
            <p className="text-sm text-slate-400">{t('payments.plan.noneHint')}</p>
          )}
          {data.status === 'past_due' ? null : <SubscribeForm current={plan} />}
        </div>
      )}
      <FormMessage error={message?.error} success={message?.success} />
      <Dialog open={confirming} title={t('payments.plan.cancelTitle')} onClose={() => setConfirming(false)}>
        <p className="text-sm text-slate-300">
          {plan === 'Premium'
            ? t('payments.plan.cancelBodyPremium', { plan, percent: PRICES.premiumBoostDiscountPercent })
            : t('payments.plan.cancelBody', { plan })}
        </p>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={cancel.isPending}>
            {t('payments.plan.keep', { plan })}
          </Button>
          <Button variant="danger" onClick={() => void onCancel()} disabled={cancel.isPending}>
            {cancel.isPending ? t('payments.plan.cancelling') : t('payments.plan.confirmCancel')}
          </Button>
        </div>
      </Dialog>
    </Panel>
  );
}
