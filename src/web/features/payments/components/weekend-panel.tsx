import { useState, type FormEvent } from 'react';
import { MSG } from '../../../../shared/messages';
import type { Quote } from '../../../../shared/schemas/payments';
import type { Server } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { checkoutErrorText } from '../../../lib/checkout';
import { formatUsd, formatWeekend, weekendRelation } from '../../../lib/format';
import { useT } from '../../../i18n/use-t';
import { useWeekendSession } from '../api/weekend-session';
import { ServerSelect } from './server-select';

/** Server of the Weekend: names the weekend a booking gets now (the next free one). */
export function WeekendPanel({ quote, servers }: { quote: Quote; servers: readonly Server[] }) {
  const { t } = useT();
  const book = useWeekendSession();
  const [serverId, setServerId] = useState(servers.length === 1 ? (servers[0]?.id ?? '') : '');
  const [error, setError] = useState<string | null>(null);
  const { nextFreeWeekend, amount } = quote.weekend;
  const relation = weekendRelation(nextFreeWeekend);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!serverId) return setError(MSG.selectServer);
    setError(null);
    try {
      await book.mutateAsync({ serverId, returnPath: '/payments' });
    } catch (e) {
      setError(checkoutErrorText(e));
    }
  };

  return (
    <Panel
      id="weekend-heading"
      title={t('payments.weekend.title')}
      description={t('payments.weekend.description')}
      className="border-amber-300/25"
    >
      <div className="grid gap-4 sm:grid-cols-2 sm:items-start">
        <div className="rounded-xl border border-amber-300/30 bg-amber-400/10 px-4 py-3" data-testid="next-weekend">
          <p className="text-xs font-bold uppercase tracking-wide text-amber-200">
            {relation === 'this weekend'
              ? t('payments.weekend.getThis')
              : relation === 'next weekend'
                ? t('payments.weekend.getNext')
                : t('payments.weekend.get')}
          </p>
          <p className="text-lg font-bold text-white">{formatWeekend(nextFreeWeekend)}</p>
          <p className="text-sm text-amber-100/80">{t('payments.weekend.nextFree')}</p>
        </div>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex min-w-0 flex-col gap-4">
          <ServerSelect label={t('payments.weekend.server')} servers={servers} value={serverId} onChange={setServerId} />
          <FormMessage error={error} />
          <Button type="submit" disabled={book.isPending} className="self-end">
            {book.isPending ? t('payments.action.openingCheckout') : t('payments.weekend.book', { price: formatUsd(amount) })}
          </Button>
        </form>
      </div>
    </Panel>
  );
}
