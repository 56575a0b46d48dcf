import { useState } from 'react';
import { Link } from 'react-router';
import { centsToDollars, PRICES } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import type { Server, ViewerState } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { T, useT } from '../../../i18n/use-t';
import { checkoutErrorText } from '../../../lib/checkout';
import { formatUsd } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useBoostServer } from '../api/boost-server';

const PRICE = formatUsd(centsToDollars(PRICES.playerBoostCents));

/**
 * 'Boost for $2' for players and visitors; owners and admins cannot boost, so they do
 * not see it. Visitors are told to log in; the checkout comes back to this page.
 */
export function BoostCard({ server, viewer }: { server: Server; viewer: ViewerState | null }) {
  const { t } = useT();
  const session = useSession();
  const boost = useBoostServer();
  const [error, setError] = useState<string | null>(null);
  if (viewer?.isOwner || (session && session.user.role !== 'player')) return null;

  const onBoost = async () => {
    if (!session) return setError(MSG.loginRequired);
    setError(null);
    try {
      await boost.mutateAsync({ serverId: server.id, returnPath: `/servers/${server.id}` });
    } catch (e) {
      setError(checkoutErrorText(e, MSG.boostFailed));
    }
  };

  return (
    <section
      aria-labelledby="boost-heading"
      className="flex flex-col gap-3 rounded-2xl border border-accent-500/30 bg-ink-900/90 p-4 text-slate-100 sm:p-5"
    >
      <div>
        <h2 id="boost-heading" className="font-semibold text-white">
          {t('server.boost.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-400">{t('server.boost.text', { name: server.name })}</p>
      </div>
      <Button onClick={() => void onBoost()} disabled={boost.isPending}>
        {boost.isPending ? t('server.boost.opening') : t('server.boost.button', { price: PRICE })}
      </Button>
      <FormMessage error={error} />
      {error === MSG.loginRequired ? (
        <p className="text-sm text-slate-300">
          <T id="server.boost.login" components={{ link: <Link to="/login" className="font-semibold text-brand-400 hover:underline" /> }} />
        </p>
      ) : null}
    </section>
  );
}
