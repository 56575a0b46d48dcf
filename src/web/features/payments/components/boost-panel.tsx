import { useState, type FormEvent } from 'react';
import { MSG } from '../../../../shared/messages';
import { PRICES } from '../../../../shared/limits';
import type { Quote } from '../../../../shared/schemas/payments';
import type { Server } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { checkoutErrorText } from '../../../lib/checkout';
import { formatUsd } from '../../../lib/format';
import { useMessageText } from '../../../i18n/messages';
import { T, useT, type Translate } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { creditsOf, useBoostCredits, useSpendBoostCredits } from '../api/boost-credits';
import { useBoostSession } from '../api/boost-session';
import { ServerSelect } from './server-select';

/**
 * Owner boost packages for one of one's servers: prices from the quote, Premium's discount shown.
 * A package the server's boost credits cover is paid with them first; paying stays one click away.
 */
export function BoostPanel({ quote, servers }: { quote: Quote; servers: readonly Server[] }) {
  const { t } = useT();
  const message = useMessageText();
  const boost = useBoostSession();
  const spend = useSpendBoostCredits();
  const balances = useBoostCredits();
  const [serverId, setServerId] = useState(servers.length === 1 ? (servers[0]?.id ?? '') : '');
  const [boosts, setBoosts] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const credits = serverId ? creditsOf(balances.data, serverId) : 0;
  const chosen = quote.packages.find((p) => p.boosts === boosts);
  const useCredits = chosen !== undefined && chosen.boosts <= credits;

  /** Checks the form; answers the server and package, or shows what is missing. */
  const validChoice = () => {
    setSuccess(null);
    if (!serverId) return setError(MSG.selectServerToBoost);
    if (boosts === null) return setError(MSG.selectBoostPackage);
    setError(null);
    return { serverId, amount: boosts };
  };

  const pay = async () => {
    const choice = validChoice();
    if (!choice) return;
    try {
      await boost.mutateAsync({ ...choice, returnPath: '/payments' });
    } catch (e) {
      setError(checkoutErrorText(e));
    }
  };

  const spendCredits = async () => {
    const choice = validChoice();
    if (!choice) return;
    try {
      const spent = await spend.mutateAsync(choice);
      const name = servers.find((s) => s.id === spent.serverId)?.name;
      setSuccess(
        name
          ? t('payments.boost.added', { count: spent.spent, balance: spent.balance, name })
          : t('payments.boost.addedYours', { count: spent.spent, balance: spent.balance }),
      );
      setBoosts(null);
    } catch (e) {
      setError(errorText(e, MSG.boostFailed));
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void (useCredits ? spendCredits() : pay());
  };

  // Until the balances are known a click could pay for what credits cover: wait for them.
  const busy = boost.isPending || spend.isPending || balances.isPending;
  return (
    <Panel
      id="boost-heading"
      title={t('payments.boost.title')}
      description={t('payments.boost.description')}
      action={
        quote.premium ? (
          <span className="rounded-full bg-amber-400/15 px-3 py-1 text-xs font-bold text-amber-200">
            {t('payments.boost.premiumDiscount', { percent: PRICES.premiumBoostDiscountPercent })}
          </span>
        ) : null
      }
    >
      {!quote.boostingEnabled ? (
        <p role="note" className="rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100">
          {message(MSG.boostingDisabled)}
        </p>
      ) : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
        <ServerSelect label={t('payments.boost.server')} servers={servers} value={serverId} onChange={setServerId} />
        {credits > 0 ? <CreditBalance credits={credits} /> : null}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1.5 text-sm font-medium text-slate-200">{t('payments.boost.package')}</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
            {quote.packages.map((p) => {
              const selected = p.boosts === boosts;
              return (
                <label
                  key={p.boosts}
                  className={`relative flex cursor-pointer flex-col gap-0.5 rounded-xl border px-3 py-3 transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-400 ${
                    selected ? 'border-brand-400 bg-brand-500/15' : 'border-white/10 bg-white/5 hover:bg-white/10'
                  }`}
                >
                  <input
                    type="radio"
                    name="package"
                    value={p.boosts}
                    checked={selected}
                    onChange={() => setBoosts(p.boosts)}
                    className="sr-only"
                  />
                  <span className="text-white">
                    <T
                      id="payments.boost.packageBoosts"
                      values={{ count: p.boosts }}
                      components={{
                        num: <span className="text-2xl font-black tabular-nums" />,
                        unit: <span className="text-sm text-slate-300" />,
                      }}
                    />
                  </span>
                  <span className="flex flex-wrap items-baseline gap-1.5 text-sm">
                    <span className="font-semibold text-emerald-300">{formatUsd(p.amount)}</span>
                    {p.amount < p.fullAmount ? (
                      <s className="text-slate-500">
                        <span className="sr-only">{t('payments.boost.was')} </span>
                        {formatUsd(p.fullAmount)}
                      </s>
                    ) : null}
                  </span>
                  {p.boosts <= credits ? <span className="text-xs font-semibold text-amber-200">{t('payments.boost.covered')}</span> : null}
                </label>
              );
            })}
          </div>
        </fieldset>
        <FormMessage error={error} success={success} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-400" aria-live="polite">
            {!chosen
              ? t('payments.boost.pick')
              : useCredits
                ? t('payments.boost.fromCredits', { count: chosen.boosts, left: credits - chosen.boosts })
                : t('payments.boost.forPrice', { count: chosen.boosts, price: formatUsd(chosen.amount) })}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            {useCredits ? (
              <Button variant="ghost" disabled={busy || !quote.boostingEnabled} onClick={() => void pay()}>
                {t('payments.boost.payInstead', { price: formatUsd(chosen.amount) })}
              </Button>
            ) : null}
            <Button type="submit" disabled={busy || !quote.boostingEnabled}>
              {submitLabel(t, { paying: boost.isPending, spending: spend.isPending, useCredits, chosen })}
            </Button>
          </div>
        </div>
      </form>
    </Panel>
  );
}

/** The submit button's words: what it is doing, or what a click will do. */
function submitLabel(
  t: Translate,
  {
    paying,
    spending,
    useCredits,
    chosen,
  }: {
    paying: boolean;
    spending: boolean;
    useCredits: boolean;
    chosen: Quote['packages'][number] | undefined;
  },
): string {
  if (paying) return t('payments.action.openingCheckout');
  if (spending) return t('payments.boost.adding');
  if (!chosen) return t('payments.boost.buy');
  return useCredits
    ? t('payments.boost.useCredits', { count: chosen.boosts })
    : t('payments.boost.buyFor', { price: formatUsd(chosen.amount) });
}

/** The selected server's unspent Premium credits, and what they do. */
function CreditBalance({ credits }: { credits: number }) {
  const { t } = useT();
  return (
    <p
      data-testid="boost-credit-balance"
      className="flex flex-wrap items-baseline gap-x-2 rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100"
    >
      <span>
        <T
          id="payments.boost.balance"
          values={{ count: credits }}
          components={{ num: <span className="text-lg font-black tabular-nums text-white" /> }}
        />
      </span>
      <span className="text-amber-100/80">{t('payments.boost.balanceHint')}</span>
    </p>
  );
}
