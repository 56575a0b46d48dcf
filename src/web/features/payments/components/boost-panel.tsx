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
import { useBoostSession } from '../api/boost-session';
import { ServerSelect } from './server-select';

/** Owner boost packages for one of one's servers: prices from the quote, Premium's discount shown. */
export function BoostPanel({ quote, servers }: { quote: Quote; servers: readonly Server[] }) {
  const boost = useBoostSession();
  const [serverId, setServerId] = useState(servers.length === 1 ? (servers[0]?.id ?? '') : '');
  const [boosts, setBoosts] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!serverId) return setError(MSG.selectServerToBoost);
    if (boosts === null) return setError(MSG.selectBoostPackage);
    setError(null);
    try {
      await boost.mutateAsync({ serverId, amount: boosts, returnPath: '/payments' });
    } catch (e) {
      setError(checkoutErrorText(e));
    }
  };

  const chosen = quote.packages.find((p) => p.boosts === boosts);
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
                </label>
              );
            })}
          </div>
        </fieldset>
        <FormMessage error={error} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-400" aria-live="polite">
            {chosen ? `${chosen.boosts.toLocaleString()} boosts for ${formatUsd(chosen.amount)}` : 'Pick a package.'}
          </p>
          <Button type="submit" disabled={boost.isPending || !quote.boostingEnabled}>
            {boost.isPending ? 'Opening checkout…' : chosen ? `Buy for ${formatUsd(chosen.amount)}` : 'Buy boosts'}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
