import { ButtonLink } from '../../../components/button';
import { creditsOf, useBoostCredits } from '../api/boost-credits';

/** On the dashboard: a server's unspent Premium boost credits and where to spend them (nothing when 0). */
export function BoostCreditsNote({ serverId }: { serverId: string }) {
  const balances = useBoostCredits();
  const credits = creditsOf(balances.data, serverId);
  if (credits === 0) return null;
  return (
    <section
      aria-label="Boost credits"
      data-testid="dashboard-boost-credits"
      className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-amber-400/30 bg-amber-400/10 px-5 py-4"
    >
      <p className="text-amber-100">
        <span className="text-2xl font-black tabular-nums text-white">{credits.toLocaleString()}</span> boost credits to spend on this
        server. They pay for boost packages before any money does.
      </p>
      <ButtonLink to="/payments#boost-heading" variant="secondary">
        Spend credits
      </ButtonLink>
    </section>
  );
}
