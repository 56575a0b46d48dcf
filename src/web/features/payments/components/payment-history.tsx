import { useState } from 'react';
import { Link } from 'react-router';
import type { Payment } from '../../../../shared/schemas/payments';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import { EmptyState } from '../../../components/empty-state';
import { Skeleton } from '../../../components/skeleton';
import { useT } from '../../../i18n/use-t';
import { formatDate, formatUsd } from '../../../lib/format';
import { PAYMENTS_PAGE_SIZE, usePayments } from '../api/get-payments';
import { PAYMENT_TYPE_LABELS } from './labels';

/** The owner's payments, newest first, a page at a time; refunded and disputed ones are marked. */
export function PaymentHistory() {
  const { t } = useT();
  const [page, setPage] = useState(1);
  const { data, isPending, isError, isPlaceholderData } = usePayments(page);
  const pages = data ? Math.max(1, Math.ceil(data.total / PAYMENTS_PAGE_SIZE)) : 1;

  return (
    <Panel id="history-heading" title={t('payments.history.title')}>
      {isPending ? (
        <div className="flex flex-col gap-2" aria-busy="true" aria-label={t('payments.history.loading')}>
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      ) : isError ? (
        <p role="alert" className="text-sm text-red-300">
          {t('payments.history.failed')}
        </p>
      ) : data.payments.length === 0 ? (
        <EmptyState title={t('payments.history.emptyTitle')}>{t('payments.history.empty')}</EmptyState>
      ) : (
        <div className={`flex flex-col gap-4 transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`}>
          <ul className="flex flex-col divide-y divide-white/5 sm:hidden" aria-label={t('payments.history.list')}>
            {data.payments.map((p) => (
              <PaymentItem key={p.id} payment={p} />
            ))}
          </ul>
          <div className="hidden sm:block">
            <table className="w-full text-left text-sm" data-testid="payment-history">
              <thead className="border-b border-white/10 text-xs uppercase tracking-wide text-slate-400">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t('payments.history.date')}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t('payments.history.type')}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t('payments.history.server')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-semibold">
                    {t('payments.history.amount')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-white/5">
                {data.payments.map((p) => (
                  <PaymentRow key={p.id} payment={p} />
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={page}
            pages={pages}
            onPage={setPage}
            label={t('payments.history.pages')}
            previous={t('payments.history.newer')}
            next={t('payments.history.older')}
          />
        </div>
      )}
    </Panel>
  );
}

function ServerLink({ payment: p }: { payment: Payment }) {
  const { t } = useT();
  if (!p.serverId) return <span className="text-slate-500">—</span>;
  return (
    <Link to={`/servers/${p.serverId}`} className="hover:text-white hover:underline">
      {p.serverName ?? t('payments.server.fallback', { id: p.serverId })}
    </Link>
  );
}

function Amount({ payment: p }: { payment: Payment }) {
  const { t } = useT();
  const undone = p.status !== 'paid';
  return (
    <>
      <span className={undone ? 'text-slate-500 line-through' : 'font-semibold text-white'}>{formatUsd(p.amount)}</span>
      {undone ? (
        <span className="ml-2 rounded-full bg-red-500/15 px-2 py-0.5 text-xs font-semibold text-red-200">
          {p.status === 'refunded' ? t('payments.history.refunded') : t('payments.history.disputed')}
        </span>
      ) : null}
    </>
  );
}

/** A payment as a two-line item, for phones. */
function PaymentItem({ payment: p }: { payment: Payment }) {
  const { t } = useT();
  return (
    <li className="flex items-start justify-between gap-3 py-3 text-sm">
      <div className="min-w-0">
        <p className="font-medium text-white">{t(PAYMENT_TYPE_LABELS[p.type])}</p>
        <p className="truncate text-slate-400">
          {formatDate(p.createdAt)}
          {p.serverId ? ' · ' : ''}
          {p.serverId ? <ServerLink payment={p} /> : null}
        </p>
      </div>
      <p className="shrink-0 whitespace-nowrap text-right tabular-nums">
        <Amount payment={p} />
      </p>
    </li>
  );
}

function PaymentRow({ payment: p }: { payment: Payment }) {
  const { t } = useT();
  return (
    <tr>
      <td className="whitespace-nowrap px-3 py-3 text-slate-300">{formatDate(p.createdAt)}</td>
      <td className="px-3 py-3 font-medium text-white">{t(PAYMENT_TYPE_LABELS[p.type])}</td>
      <td className="max-w-56 truncate px-3 py-3 text-slate-300">
        <ServerLink payment={p} />
      </td>
      <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums">
        <Amount payment={p} />
      </td>
    </tr>
  );
}
