import { useState, type FormEvent } from 'react';
import { MSG } from '../../../../shared/messages';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { checkoutErrorText } from '../../../lib/checkout';
import { formatUsd } from '../../../lib/format';
import { useSubscribeSession } from '../api/subscribe-session';
import { useT } from '../../../i18n/use-t';
import { PAID_PLANS, PLAN_PRICES, type PaidPlan } from './plans';

/**
 * Subscribing from `/payments`: pick Pro or Premium and go to checkout, which comes back here. No
 * plan picked answers "Please select a plan". `current` (the plan the owner has) is not offered.
 */
export function SubscribeForm({ current }: { current: PaidPlan | '' }) {
  const { t } = useT();
  const subscribe = useSubscribeSession();
  const [plan, setPlan] = useState<PaidPlan | ''>('');
  const [error, setError] = useState<string | null>(null);
  const options = PAID_PLANS.filter((p) => p !== current);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!plan) return setError(MSG.selectPlan);
    setError(null);
    try {
      await subscribe.mutateAsync({ plan, returnPath: '/payments' });
    } catch (e) {
      setError(checkoutErrorText(e));
    }
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="flex flex-col gap-3 border-t border-white/10 pt-3"
      data-testid="subscribe-form"
      noValidate
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium text-slate-200">
          {current ? t('payments.subscribe.switchTo') : t('payments.subscribe.choose')}
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {options.map((p) => (
            <label
              key={p}
              className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border px-3 py-2 text-sm ${
                plan === p ? 'border-brand-400 bg-brand-500/10 text-white' : 'border-white/10 bg-white/5 text-slate-200'
              }`}
            >
              <input
                type="radio"
                name="plan"
                value={p}
                checked={plan === p}
                onChange={() => {
                  setPlan(p);
                  setError(null);
                }}
                className="size-4 accent-brand-500"
              />
              <span className="font-semibold">{p}</span>
              <span className="ml-auto text-slate-400">{t('payments.price.monthly', { price: formatUsd(PLAN_PRICES[p]) })}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" className="min-h-11 self-start" disabled={subscribe.isPending}>
        {subscribe.isPending ? t('payments.subscribe.going') : t('payments.subscribe.submit')}
      </Button>
      <FormMessage error={error} />
    </form>
  );
}
