import { Link } from 'react-router';
import type { Report } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useOpenReports } from '../api/get-reports';
import { useResolveReport } from '../api/resolve-report';
import { LoadState } from './load-state';

/** Open reports of servers and reviews: hide what was reported, or dismiss the report. */
export function ReportsQueue() {
  const { t } = useT();
  const { data, isPending, isError } = useOpenReports();
  const resolve = useResolveReport();
  return (
    <Panel
      id="reports-heading"
      title={t('admin.reports.title')}
      description={data ? t('admin.reports.open', { count: data.length }) : t('admin.reports.description')}
    >
      {!data ? (
        <LoadState pending={isPending} error={isError} failed="admin.load.reports" />
      ) : data.length === 0 ? (
        <EmptyState title={t('admin.reports.empty.title')}>{t('admin.reports.empty.text')}</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" data-testid="reports">
          {data.map((r) => (
            <ReportItem key={r.id} report={r} busy={resolve.isPending} onResolve={(action) => resolve.mutate({ id: r.id, action })} />
          ))}
        </ul>
      )}
      <FormMessage error={resolve.isError ? errorText(resolve.error, t('admin.reports.failed')) : null} />
    </Panel>
  );
}

function ReportItem({ report: r, busy, onResolve }: { report: Report; busy: boolean; onResolve: (action: 'hide' | 'dismiss') => void }) {
  const { t } = useT();
  const what = r.review ? t('admin.reports.reviewBy', { username: r.review.username }) : t('admin.reports.server');
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-white/10 bg-ink-950/40 p-4 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <span className="rounded-full bg-amber-400/15 px-2 py-0.5 text-xs font-semibold text-amber-200">{what}</span>
          <Link to={`/servers/${r.server.id}`} className="font-semibold text-white hover:underline">
            {r.server.name}
          </Link>
          {r.server.hidden ? <span className="text-xs text-slate-500">{t('admin.reports.hidden')}</span> : null}
        </p>
        {r.review?.review ? (
          <blockquote className="mt-2 border-l-2 border-white/20 pl-3 text-slate-300">
            {t('admin.common.quote', { text: r.review.review })}
          </blockquote>
        ) : null}
        <p className="mt-2 break-words text-slate-200">
          <span className="text-slate-400">{t('admin.reports.reason')} </span>
          {r.reason}
        </p>
        <p className="mt-1 text-xs text-slate-500">
          {r.reporter ? t('admin.reports.reportedBy', { reporter: r.reporter }) : t('admin.reports.reporterDeleted')} ·{' '}
          {formatDate(r.createdAt)}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="danger" className="px-3 py-1.5" disabled={busy} onClick={() => onResolve('hide')}>
          {r.review ? t('admin.reports.hideReview') : t('admin.reports.hideServer')}
        </Button>
        <Button variant="secondary" className="px-3 py-1.5" disabled={busy} onClick={() => onResolve('dismiss')}>
          {t('admin.reports.dismiss')}
        </Button>
      </div>
    </li>
  );
}
