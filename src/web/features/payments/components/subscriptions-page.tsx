import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { centsToDollars, PRICES } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { normalizePlan } from '../../../../shared/roles';
import { Button, ButtonLink } from '../../../components/button';
import { CheckoutReturnBanner } from '../../../components/checkout-return-banner';
import { FormMessage } from '../../../components/form-message';
import type { MessageId } from '../../../i18n/catalogs/index';
import { T, useT } from '../../../i18n/use-t';
import { checkoutErrorText } from '../../../lib/checkout';
import { formatUsd } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useSubscribeSession } from '../api/subscribe-session';
import { PLAN_PRICES, planFeatures, type PaidPlan } from './plans';

const PLANS: ReadonlyArray<{ plan: PaidPlan; tagline: MessageId }> = [
  { plan: 'Pro', tagline: 'payments.plans.proTagline' },
  { plan: 'Premium', tagline: 'payments.plans.premiumTagline' },
];

/**
 * `/subscriptions` (public): Pro and Premium side by side; owners subscribe, visitors are invited to
 * sign up. `testimonials` is the owners' testimonials section, composed in by the router.
 */
export function SubscriptionsPage({ testimonials }: { testimonials?: ReactNode }) {
  const { t } = useT();
  const session = useSession();
  const subscribe = useSubscribeSession();
  const [pending, setPending] = useState<PaidPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const role = session?.user.role ?? null;
  const current = normalizePlan(session?.user.subscriptionPlan);

  const onSubscribe = async (plan: PaidPlan | null) => {
    if (!plan) return setError(MSG.selectPlan);
    setError(null);
    setPending(plan);
    try {
      // The plan shows on /payments, so that is where the checkout comes back to.
      await subscribe.mutateAsync({ plan, returnPath: '/payments' });
    } catch (e) {
      setError(checkoutErrorText(e));
      setPending(null);
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-8 px-4 py-8 sm:py-12">
      <header className="text-center">
        <h1 className="text-3xl font-black tracking-tight text-white sm:text-4xl">
          <T id="payments.plans.title" components={{ accent: <span className="text-gradient" /> }} />
        </h1>
        <p className="mx-auto mt-2 max-w-2xl text-slate-300">{t('payments.plans.intro')}</p>
      </header>
      <CheckoutReturnBanner />
      <div className="grid gap-6 md:grid-cols-2">
        {PLANS.map(({ plan, tagline }) => {
          const isCurrent = role === 'server_owner' && current === plan;
          const featured = plan === 'Premium';
          return (
            <article
              key={plan}
              aria-labelledby={`plan-${plan}`}
              data-testid={`plan-${plan}`}
              className={`relative flex flex-col gap-5 rounded-2xl border p-6 shadow-xl sm:p-8 ${
                featured
                  ? 'border-amber-300/40 bg-gradient-to-b from-amber-400/10 to-ink-900/90 shadow-amber-500/10'
                  : 'border-white/10 bg-ink-900/80 shadow-black/30'
              }`}
            >
              {isCurrent ? (
                <span className="absolute -top-3 left-6 rounded-full bg-emerald-500 px-3 py-1 text-xs font-bold uppercase tracking-wide text-ink-950">
                  {t('payments.plans.currentBadge')}
                </span>
              ) : featured ? (
                <span className="absolute -top-3 left-6 rounded-full bg-amber-400 px-3 py-1 text-xs font-bold uppercase tracking-wide text-ink-950">
                  {t('payments.plans.bestValue')}
                </span>
              ) : null}
              <div>
                <h2 id={`plan-${plan}`} className="text-2xl font-black text-white">
                  {plan}
                </h2>
                <p className="mt-1 text-sm text-slate-400">{t(tagline)}</p>
              </div>
              <p className="text-white">
                <span className="text-5xl font-black tracking-tight">{formatUsd(PLAN_PRICES[plan])}</span>
                <span className="text-slate-400"> {t('payments.price.perMonth')}</span>
              </p>
              <ul className="flex flex-1 flex-col gap-2 text-slate-200">
                {planFeatures(plan, t).map((f) => (
                  <li key={f} className="flex gap-2">
                    <span aria-hidden="true" className="font-bold text-emerald-400">
                      ✓
                    </span>
                    {f}
                  </li>
                ))}
              </ul>
              {role === 'server_owner' ? (
                <Button
                  variant={featured ? 'primary' : 'secondary'}
                  className="w-full"
                  disabled={isCurrent || pending !== null}
                  onClick={() => void onSubscribe(plan)}
                  aria-label={isCurrent ? t('payments.plans.currentLabel', { plan }) : t('payments.plans.subscribe', { plan })}
                >
                  {isCurrent
                    ? t('payments.plans.current')
                    : pending === plan
                      ? t('payments.action.openingCheckout')
                      : t('payments.plans.subscribe', { plan })}
                </Button>
              ) : role === null ? (
                <ButtonLink to="/register" variant={featured ? 'primary' : 'secondary'} className="w-full">
                  {t('payments.plans.register', { plan })}
                </ButtonLink>
              ) : null}
            </article>
          );
        })}
      </div>
      <FormMessage error={error} />
      {testimonials}
      <CallToAction role={role} />
    </div>
  );
}

function CallToAction({ role }: { role: string | null }) {
  const { t } = useT();
  if (role === 'server_owner') {
    return (
      <p className="text-center text-sm text-slate-400">
        <T
          id="payments.plans.ownerNote"
          components={{ link: <Link to="/payments" className="font-semibold text-brand-400 hover:underline" /> }}
        />
      </p>
    );
  }
  if (role) {
    return (
      <p role="note" className="rounded-xl border border-white/10 bg-white/5 px-4 py-3 text-center text-sm text-slate-300">
        {t('payments.plans.playerNote', { price: formatUsd(centsToDollars(PRICES.playerBoostCents)) })}
      </p>
    );
  }
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-brand-400/30 bg-brand-500/10 px-6 py-8 text-center">
      <p className="text-lg font-bold text-white">{t('payments.plans.visitorTitle')}</p>
      <p className="max-w-md text-sm text-slate-300">{t('payments.plans.visitorText')}</p>
      <div className="flex flex-wrap justify-center gap-2">
        <ButtonLink to="/register">{t('payments.plans.registerOwner')}</ButtonLink>
        <ButtonLink to="/login" variant="secondary">
          {t('payments.plans.login')}
        </ButtonLink>
      </div>
    </div>
  );
}
