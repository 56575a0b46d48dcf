import { ButtonLink } from '../../../components/button';
import { T, useT } from '../../../i18n/use-t';
import { creditsOf, useBoostCredits } from '../api/boost-credits';

/** On the dashboard: a server's unspent Premium boost credits and where to spend them (nothing when 0). */
export function BoostCreditsNote({ serverId }: { serverId: string }) {
  const { t } = useT();
  const balances = useBoostCredits();
  const credits = creditsOf(balances.data, serverId);
  if (credits === 0) return null;
  return (
    <section
      aria-label={t('payments.creditsNote.label')}
      data-testid="dashboard-boost-credits"
      className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-amber-400/30 bg-amber-400/10 px-5 py-4"
    >
      <p className="text-amber-100">
        <T
          id="payments.creditsNote.text"
          values={{ count: credits }}
          components={{ num: <span className="text-2xl font-black tabular-nums text-white" /> }}
        />
      </p>
      <ButtonLink to="/payments#boost-heading" variant="secondary">
        {t('payments.creditsNote.spend')}
      </ButtonLink>
    </section>
  );
}
