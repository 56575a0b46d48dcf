import { useState } from 'react';
import { Link } from 'react-router';
import type { FraudActionResult, FraudEvidenceRow, FraudSuspect } from '../../../../shared/schemas/fraud';
import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT, type Translate } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { dateFormat, numberFormat } from '../../../lib/format';
import { useFraudAction, useFraudEvidence, useFraudSuspects } from '../api/fraud';
import { LoadState } from './load-state';

const when = () => dateFormat({ dateStyle: 'short', timeStyle: 'short' });
const percent = () => numberFormat({ style: 'percent', maximumFractionDigits: 0 });
const rowKey = (r: Pick<FraudEvidenceRow, 'kind' | 'id'>) => `${r.kind}:${r.id}`;

/** "3 h", "2 d": how old an account was when it voted. */
function ageAt(t: Translate, registeredAt: string, votedAt: string): string {
  const hours = Math.max(0, (new Date(votedAt).getTime() - new Date(registeredAt).getTime()) / 3_600_000);
  if (hours < 1) return t('admin.fraud.age.minutes', { count: Math.round(hours * 60) });
  return hours < 48
    ? t('admin.fraud.age.hours', { count: Math.round(hours) })
    : t('admin.fraud.age.days', { count: Math.round(hours / 24) });
}

/** What an action did, in a sentence. */
function resultText(t: Translate, action: 'void' | 'release', r: FraudActionResult): string {
  const counts = { votes: r.votes, joins: r.joins, dailyVotes: r.dailyVotes, servers: r.servers.length };
  return action === 'void' ? t('admin.fraud.result.void', counts) : t('admin.fraud.result.release', counts);
}

const KIND_SELECT: Record<FraudEvidenceRow['kind'], MessageId> = {
  vote: 'admin.fraud.select.vote',
  join: 'admin.fraud.select.join',
  dailyVote: 'admin.fraud.select.dailyVote',
};

const STATUS: Record<FraudEvidenceRow['status'], MessageId> = {
  counted: 'admin.fraud.status.counted',
  held: 'admin.fraud.status.held',
  voided: 'admin.fraud.status.voided',
};

/** Like, Dislike, Join or Daily vote. */
function whatOf(r: FraudEvidenceRow): MessageId {
  if (r.kind === 'join') return 'admin.fraud.what.join';
  if (r.kind === 'dailyVote') return 'admin.fraud.what.dailyVote';
  return r.type === 'dislike' ? 'admin.fraud.what.dislike' : 'admin.fraud.what.like';
}

/**
 * Fraud review: servers whose votes of the last 24 hours look made (young accounts, one network,
 * registration bursts), ranked by score; open one to see every vote with its account and network,
 * then void or release a selection, or everything from the selected accounts, in one action.
 */
export function FraudPanel() {
  const { t } = useT();
  const suspects = useFraudSuspects();
  // Held here, not in the server's evidence: a voided server leaves the list, its outcome stays.
  const act = useFraudAction();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Panel id="fraud-heading" title={t('admin.fraud.title')} description={t('admin.fraud.description')}>
      <div data-testid="fraud" className="flex flex-col gap-4">
        <FormMessage
          error={act.isError ? errorText(act.error, t('admin.fraud.failed')) : null}
          success={act.isSuccess ? resultText(t, act.variables.action, act.data) : null}
        />
        {!suspects.data ? (
          <LoadState pending={suspects.isPending} error={suspects.isError} failed="admin.load.fraud" />
        ) : suspects.data.length === 0 ? (
          <EmptyState title={t('admin.fraud.empty.title')}>{t('admin.fraud.empty.text')}</EmptyState>
        ) : (
          <ul className="flex flex-col gap-2">
            {suspects.data.map((s) => (
              <SuspectItem
                key={s.server.id}
                suspect={s}
                act={act}
                open={open === s.server.id}
                onToggle={() => setOpen(open === s.server.id ? null : s.server.id)}
              />
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}

type Act = ReturnType<typeof useFraudAction>;

function SuspectItem({ suspect: s, open, onToggle, act }: { suspect: FraudSuspect; open: boolean; onToggle: () => void; act: Act }) {
  const { t } = useT();
  const tone = s.score >= 60 ? 'bg-red-500' : s.score >= 30 ? 'bg-amber-400' : 'bg-emerald-500';
  return (
    <li className="rounded-xl border border-white/10 bg-ink-950/40" data-testid="fraud-suspect">
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={open}
        className="flex min-h-11 w-full flex-wrap items-center gap-3 p-3 text-left text-sm"
      >
        <span className="w-28 shrink-0" title={t('admin.fraud.scoreOf', { score: s.score })}>
          <span className="block text-xs text-slate-400">{t('admin.fraud.score', { score: s.score })}</span>
          <span className="mt-1 block h-2 rounded-full bg-white/10">
            <span className={`block h-2 rounded-full ${tone}`} style={{ width: `${s.score}%` }} />
          </span>
        </span>
        <span className="min-w-0 flex-1 font-semibold text-white">{s.server.name}</span>
        <span className="text-slate-300">
          {s.topNetwork
            ? t('admin.fraud.summaryNetwork', {
                rows: s.rows,
                held: s.held,
                young: percent().format(s.youngShare),
                networkRows: s.topNetwork.rows,
                network: s.topNetwork.network,
                bursts: s.burstAccounts,
              })
            : t('admin.fraud.summary', { rows: s.rows, held: s.held, young: percent().format(s.youngShare), bursts: s.burstAccounts })}
        </span>
        <span aria-hidden="true" className="text-slate-400">
          {open ? '▲' : '▼'}
        </span>
      </button>
      {open ? <Evidence serverId={s.server.id} act={act} /> : null}
    </li>
  );
}

function Evidence({ serverId, act }: { serverId: string; act: Act }) {
  const { t } = useT();
  const evidence = useFraudEvidence(serverId);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState('');
  const rows = evidence.data ?? [];
  const chosen = rows.filter((r) => selected.has(rowKey(r)));
  const toggle = (key: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const run = (action: 'void' | 'release', byAccount: boolean) => {
    const body = byAccount
      ? { action, accountIds: [...new Set(chosen.map((r) => r.account.id))], reason }
      : {
          action,
          voteIds: chosen.filter((r) => r.kind === 'vote').map((r) => r.id),
          joinIds: chosen.filter((r) => r.kind === 'join').map((r) => r.id),
          dailyVoteIds: chosen.filter((r) => r.kind === 'dailyVote').map((r) => r.id),
          reason,
        };
    act.mutate(body, { onSuccess: () => setSelected(new Set()) });
  };

  if (!evidence.data)
    return (
      <div className="p-3">
        <LoadState pending={evidence.isPending} error={evidence.isError} failed="admin.load.evidence" height="h-24" />
      </div>
    );
  return (
    <div className="flex flex-col gap-3 border-t border-white/10 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={`/servers/${serverId}`} className="text-sm font-semibold text-brand-300 hover:underline">
          {t('admin.fraud.openServer')}
        </Link>
        <Button variant="ghost" className="min-h-11 px-3" onClick={() => setSelected(new Set(rows.map(rowKey)))}>
          {t('admin.fraud.selectAll')}
        </Button>
        <Button
          variant="ghost"
          className="min-h-11 px-3"
          onClick={() =>
            setSelected(new Set(rows.filter((r) => r.account.registeredNetwork && r.account.registeredNetwork === r.network).map(rowKey)))
          }
        >
          {t('admin.fraud.selectNetwork')}
        </Button>
      </div>
      <div className="overflow-x-auto rounded-xl border border-white/10">
        <table className="w-full text-left text-sm" data-testid="fraud-evidence">
          <thead className="text-xs text-slate-400">
            <tr>
              <th className="px-3 py-2 font-medium">
                <span className="sr-only">{t('admin.fraud.col.select')}</span>
              </th>
              <th className="px-3 py-2 font-medium">{t('admin.fraud.col.what')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.fraud.col.account')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.fraud.col.age')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.fraud.col.registeredFrom')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.fraud.col.votedFrom')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.fraud.col.when')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.fraud.col.status')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-white/10">
            {rows.map((r) => (
              <tr key={rowKey(r)}>
                <td className="px-3 py-1">
                  <input
                    type="checkbox"
                    className="size-5"
                    checked={selected.has(rowKey(r))}
                    onChange={() => toggle(rowKey(r))}
                    aria-label={t(KIND_SELECT[r.kind], { username: r.account.username })}
                  />
                </td>
                <td className="px-3 py-2">{t(whatOf(r))}</td>
                <td className="px-3 py-2">
                  {r.account.username}
                  {r.account.confirmed ? null : <span className="ml-1 text-xs text-amber-300">{t('admin.fraud.unconfirmed')}</span>}
                </td>
                <td className="px-3 py-2 tabular-nums">{ageAt(t, r.account.registeredAt, r.createdAt)}</td>
                <td className="px-3 py-2 font-mono text-xs">{r.account.registeredNetwork ?? '—'}</td>
                <td className="px-3 py-2 font-mono text-xs">{r.network ?? '—'}</td>
                <td className="whitespace-nowrap px-3 py-2">{when().format(new Date(r.createdAt))}</td>
                <td className="px-3 py-2">{t(STATUS[r.status])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <label className="flex flex-col gap-1 text-sm text-slate-200">
        {t('admin.fraud.reason')}
        <input
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
          className="min-h-11 rounded-xl border border-white/10 bg-ink-950/60 px-3 text-slate-100"
          placeholder={t('admin.fraud.reasonPlaceholder')}
        />
      </label>
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" className="min-h-11" disabled={chosen.length === 0 || act.isPending} onClick={() => run('void', false)}>
          {t('admin.fraud.voidSelected', { count: chosen.length })}
        </Button>
        <Button variant="danger" className="min-h-11" disabled={chosen.length === 0 || act.isPending} onClick={() => run('void', true)}>
          {t('admin.fraud.voidAccounts')}
        </Button>
        <Button
          variant="secondary"
          className="min-h-11"
          disabled={chosen.length === 0 || act.isPending}
          onClick={() => run('release', false)}
        >
          {t('admin.fraud.releaseSelected', { count: chosen.length })}
        </Button>
      </div>
    </div>
  );
}
