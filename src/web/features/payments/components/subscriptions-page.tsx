import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { MSG } from '../../../../shared/messages';
import { normalizePlan } from '../../../../shared/roles';
import { Button, ButtonLink } from '../../../components/button';
import { CheckoutReturnBanner } from '../../../components/checkout-return-banner';
import { FormMessage } from '../../../components/form-message';
import { checkoutErrorText } from '../../../lib/checkout';
import { formatUsd } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useSubscribeSession } from '../api/subscribe-session';
import { PLAN_FEATURES, PLAN_PRICES, type PaidPlan } from './plans';

const PLANS: ReadonlyArray<{ plan: PaidPlan; tagline: string }> = [
  { plan: 'Pro', tagline: 'For one server that wants to look its best.' },
  { plan: 'Premium', tagline: 'For communities running several servers.' },
];

/**
 * `/subscriptions` (public): Pro and Premium side by side; owners subscribe, visitors are invited to
 * sign up. `testimonials` is the owners' testimonials section, composed in by the router.
 */
export function SubscriptionsPage({ testimonials }: { testimonials?: ReactNode }) {
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
          Plans for <span className="text-gradient">server owners</span>
        </h1>
        <p className="mx-auto mt-2 max-w-2xl text-slate-300">
          Listing a server is free. A plan unlocks a customised server page, analytics and push promotions to players. Cancel any time.
        </p>
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
                  Your current plan
                </span>
              ) : featured ? (
                <span className="absolute -top-3 left-6 rounded-full bg-amber-400 px-3 py-1 text-xs font-bold uppercase tracking-wide text-ink-950">
                  Best value
                </span>
              ) : null}
              <div>
                <h2 id={`plan-${plan}`} className="text-2xl font-black text-white">
                  {plan}
                </h2>
                <p className="mt-1 text-sm text-slate-400">{tagline}</p>
              </div>
              <p className="text-white">
                <span className="text-5xl font-black tracking-tight">{formatUsd(PLAN_PRICES[plan])}</span>
                <span className="text-slate-400"> / month</span>
              </p>
              <ul className="flex flex-1 flex-col gap-2 text-slate-200">
                {PLAN_FEATURES[plan].map((f) => (
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
                  aria-label={isCurrent ? `${plan} is your current plan` : `Subscribe to ${plan}`}
                >
                  {isCurrent ? '✓ Current plan' : pending === plan ? 'Opening checkout…' : `Subscribe to ${plan}`}
                </Button>
              ) : role === null ? (
                <ButtonLink to="/register" variant={featured ? 'primary' : 'secondary'} className="w-full">
                  Register to get {plan}
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
  if (role === 'server_owner') {
    return (
      <p className="text-center text-sm text-slate-400">
        Billed monthly through a secure card checkout. Your plan, boosts and history are on the{' '}
        <Link to="/payments" className="font-semibold text-brand-400 hover:underline">
          Payments
        </Link>{' '}
        page.
      </p>
    );
  }
  if (role) {
    return (
      <p role="note" className="rounded-xl border border-white/10 bg-white/5 px-4 py-3 text-center text-sm text-slate-300">
        Plans are for server owners. As a player you can boost the servers you love for $2 from their page.
      </p>
    );
  }
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-brand-400/30 bg-brand-500/10 px-6 py-8 text-center">
      <p className="text-lg font-bold text-white">Run a roleplay server?</p>
      <p className="max-w-md text-sm text-slate-300">
        Create a free owner account to list your server, then pick a plan when you are ready.
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <ButtonLink to="/register">Register as an owner</ButtonLink>
        <ButtonLink to="/login" variant="secondary">
          Login
        </ButtonLink>
      </div>
    </div>
  );
}
