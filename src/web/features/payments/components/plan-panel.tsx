import { useState } from 'react';
import { MSG } from '../../../../shared/messages';
import { Button, ButtonLink } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { Skeleton } from '../../../components/skeleton';
import { errorText } from '../../../lib/api-client';
import { formatDate, formatUsd } from '../../../lib/format';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useSubscription } from '../api/get-subscription';
import { PLAN_FEATURES, PLAN_PRICES } from './plans';
import { SubscribeForm } from './subscribe-form';

/** The owner's current plan, with Cancel (after a confirmation) and a link to change it. */
export function PlanPanel() {
  const { data, isPending, isError } = useSubscription();
  const cancel = useCancelSubscription();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string } | null>(null);

  const onCancel = async () => {
    setMessage(null);
    try {
      await cancel.mutateAsync();
      setConfirming(false);
      setMessage({ success: 'Your subscription is cancelled. You are on no plan now.' });
    } catch (error) {
      setConfirming(false);
      setMessage({ error: errorText(error, MSG.cancelFailed) });
    }
  };

  const plan = data?.plan ?? '';
  return (
    <Panel
      id="plan-heading"
      title="Your plan"
      action={
        <ButtonLink to="/subscriptions" variant="secondary">
          Compare plans
        </ButtonLink>
      }
    >
      {isPending ? (
        <Skeleton className="h-20" />
      ) : isError ? (
        <p role="alert" className="text-sm text-red-300">
          {MSG.loadSubscriptionFailed}
        </p>
      ) : (
        <div className="flex flex-col gap-3" data-testid="current-plan">
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-2xl font-black text-white">
              {plan ? (
                <>
                  {plan} <span className="text-base font-medium text-slate-400">{formatUsd(PLAN_PRICES[plan])}/month</span>
                </>
              ) : (
                'No plan'
              )}
            </p>
          </div>
          {plan ? (
            <>
              <ul className="grid gap-1 text-sm text-slate-300 sm:grid-cols-2">
                {PLAN_FEATURES[plan].map((f) => (
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
                    ? 'Your last payment failed: please update your card.'
                    : data.currentPeriodEnd
                      ? `Renews on ${formatDate(data.currentPeriodEnd)}.`
                      : 'Active. Billed monthly.'}
                </p>
                <Button variant="secondary" className="text-red-200 hover:text-red-100" onClick={() => setConfirming(true)}>
                  Cancel subscription
                </Button>
              </div>
            </>
          ) : (
            <p className="text-sm text-slate-400">
              Without a plan you can create one server, but not save its page or send promotions. Pro and Premium unlock your page,
              analytics and push promotions.
            </p>
          )}
          {data.status === 'past_due' ? null : <SubscribeForm current={plan} />}
        </div>
      )}
      <FormMessage error={message?.error} success={message?.success} />
      <Dialog open={confirming} title="Cancel your subscription?" onClose={() => setConfirming(false)}>
        <p className="text-sm text-slate-300">
          You will lose {plan} at once: saving your server page, push promotions
          {plan === 'Premium' ? ' and the 25 % discount on boosts' : ''}. You can subscribe again at any time.
        </p>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={cancel.isPending}>
            Keep {plan}
          </Button>
          <Button variant="danger" onClick={() => void onCancel()} disabled={cancel.isPending}>
            {cancel.isPending ? 'Cancelling…' : 'Yes, cancel'}
          </Button>
        </div>
      </Dialog>
    </Panel>
  );
}
