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
import { errorText } from '../../../lib/api-client';
import { creditsOf, useBoostCredits, useSpendBoostCredits } from '../api/boost-credits';
import { useBoostSession } from '../api/boost-session';
import { ServerSelect } from './server-select';

/**
 * Owner boost packages for one of one's servers: prices from the quote, Premium's discount shown.
 * A package the server's boost credits cover is paid with them first; paying stays one click away.
 */
export function BoostPanel({ quote, servers }: { quote: Quote; servers: readonly Server[] }) {
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
      const name = servers.find((s) => s.id === spent.serverId)?.name ?? 'your server';
      setSuccess(`${spent.spent.toLocaleString()} boosts added to ${name}. ${spent.balance.toLocaleString()} credits left.`);
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
      title="Boost packages"
      description="Boosts lift a server to the top of the Hot list and count toward Most Popular."
      action={
        quote.premium ? (
          <span className="rounded-full bg-amber-400/15 px-3 py-1 text-xs font-bold text-amber-200">
            Premium: {PRICES.premiumBoostDiscountPercent} % off
          </span>
        ) : null
      }
    >
      {!quote.boostingEnabled ? (
        <p role="note" className="rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100">
          {MSG.boostingDisabled}
        </p>
      ) : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
        <ServerSelect label="Server to boost" servers={servers} value={serverId} onChange={setServerId} />
        {credits > 0 ? <CreditBalance credits={credits} /> : null}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1.5 text-sm font-medium text-slate-200">Package</legend>
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
                    <span className="text-2xl font-black tabular-nums">{p.boosts.toLocaleString()}</span>
                    <span className="text-sm text-slate-300"> boosts</span>
                  </span>
                  <span className="flex flex-wrap items-baseline gap-1.5 text-sm">
                    <span className="font-semibold text-emerald-300">{formatUsd(p.amount)}</span>
                    {p.amount < p.fullAmount ? (
                      <s className="text-slate-500">
                        <span className="sr-only">was </span>
                        {formatUsd(p.fullAmount)}
                      </s>
                    ) : null}
                  </span>
                  {p.boosts <= credits ? <span className="text-xs font-semibold text-amber-200">Covered by credits</span> : null}
                </label>
              );
            })}
          </div>
        </fieldset>
        <FormMessage error={error} success={success} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-400" aria-live="polite">
            {!chosen
              ? 'Pick a package.'
              : useCredits
                ? `${chosen.boosts.toLocaleString()} boosts from your credits, ${(credits - chosen.boosts).toLocaleString()} left after`
                : `${chosen.boosts.toLocaleString()} boosts for ${formatUsd(chosen.amount)}`}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            {useCredits ? (
              <Button variant="ghost" disabled={busy || !quote.boostingEnabled} onClick={() => void pay()}>
                Pay {formatUsd(chosen.amount)} instead
              </Button>
            ) : null}
            <Button type="submit" disabled={busy || !quote.boostingEnabled}>
              {submitLabel({ paying: boost.isPending, spending: spend.isPending, useCredits, chosen })}
            </Button>
          </div>
        </div>
      </form>
    </Panel>
  );
}

/** The submit button's words: what it is doing, or what a click will do. */
function submitLabel({
  paying,
  spending,
  useCredits,
  chosen,
}: {
  paying: boolean;
  spending: boolean;
  useCredits: boolean;
  chosen: Quote['packages'][number] | undefined;
}): string {
  if (paying) return 'Opening checkout…';
  if (spending) return 'Adding boosts…';
  if (!chosen) return 'Buy boosts';
  return useCredits ? `Use ${chosen.boosts.toLocaleString()} credits` : `Buy for ${formatUsd(chosen.amount)}`;
}

/** The selected server's unspent Premium credits, and what they do. */
function CreditBalance({ credits }: { credits: number }) {
  return (
    <p
      data-testid="boost-credit-balance"
      className="flex flex-wrap items-baseline gap-x-2 rounded-xl border border-amber-400/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-100"
    >
      <span>
        <span className="text-lg font-black tabular-nums text-white">{credits.toLocaleString()}</span> boost credits on this server
      </span>
      <span className="text-amber-100/80">A package they cover is paid with credits first.</span>
    </p>
  );
}
