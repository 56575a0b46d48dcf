import { useState, type FormEvent } from 'react';
import { MSG } from '../../../../shared/messages';
import { sendEmailBodySchema, type EmailCampaign } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { ProgressBar } from '../../../components/progress-bar';
import { SelectField } from '../../../components/select-field';
import { TextAreaField } from '../../../components/textarea-field';
import { TextField } from '../../../components/text-field';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT, type Translate } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { validate } from '../../../lib/validate';
import { useEmailCampaign } from '../api/get-email-campaign';
import { useEmailCampaigns } from '../api/get-email-campaigns';
import { useSendEmail } from '../api/send-email';
import { AccessDenied } from './admin-page';
import { LoadState } from './load-state';

const TARGETS: ReadonlyArray<{ value: string; label: MessageId }> = [
  { value: '', label: 'admin.email.target.choose' },
  { value: 'owners', label: 'admin.email.target.owners' },
  { value: 'players', label: 'admin.email.target.players' },
];
const CONTENT_MAX = 20_000;

/** `/admin/email`: one e-mail to every owner or every player, with its progress. */
export function EmailPage() {
  const { t } = useT();
  const session = useSession();
  const send = useSendEmail();
  const [subject, setSubject] = useState('');
  const [content, setContent] = useState('');
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [campaignId, setCampaignId] = useState<string | null>(null);
  if (session?.user.role !== 'admin') return <AccessDenied />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = validate(sendEmailBodySchema, { subject, content, target: target || undefined });
    if (parsed.error !== undefined) return setError(parsed.error);
    setError(null);
    try {
      const campaign = await send.mutateAsync(parsed.data);
      setCampaignId(campaign.id);
      setSubject('');
      setContent('');
    } catch (e) {
      setError(errorText(e, MSG.sendEmailsFailed));
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8">
      <header>
        <h1 className="text-3xl font-black tracking-tight text-white">{t('admin.email.title')}</h1>
        <p className="text-slate-400">{t('admin.email.intro')}</p>
      </header>
      <Panel id="compose-heading" title={t('admin.email.compose')}>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
          <SelectField
            label={t('admin.email.sendTo')}
            options={TARGETS.map((o) => ({ value: o.value, label: t(o.label) }))}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          />
          <TextField label={t('admin.email.subject')} value={subject} maxLength={150} onChange={(e) => setSubject(e.target.value)} />
          <TextAreaField
            label={t('admin.email.content')}
            value={content}
            maxLength={CONTENT_MAX}
            rows={8}
            onChange={(e) => setContent(e.target.value)}
          />
          <FormMessage error={error} />
          <div>
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? t('admin.email.sending') : t('admin.email.send')}
            </Button>
          </div>
        </form>
        {campaignId ? <CampaignProgress id={campaignId} /> : null}
      </Panel>
      <RecentCampaigns />
    </div>
  );
}

function counts(t: Translate, c: EmailCampaign): string {
  return t('admin.email.counts', { sent: c.sent, skipped: c.skipped, failed: c.failed, total: c.total });
}

const STATUS: Record<EmailCampaign['status'], MessageId> = {
  queued: 'admin.email.status.queued',
  sending: 'admin.email.status.sending',
  done: 'admin.email.status.done',
  failed: 'admin.email.status.failed',
};

/** Polls the campaign until it is done: sent, skipped and failed of the total. */
function CampaignProgress({ id }: { id: string }) {
  const { t } = useT();
  const { data, isError } = useEmailCampaign(id);
  if (isError && !data) return <FormMessage error={MSG.sendEmailsFailed} />;
  if (!data) return null;
  const handled = data.sent + data.skipped + data.failed;
  const fraction = data.total === 0 ? (data.status === 'done' ? 1 : 0) : handled / data.total;
  return (
    <div
      className="flex flex-col gap-2 rounded-xl border border-white/10 bg-ink-950/40 p-4"
      data-testid="campaign-progress"
      data-status={data.status}
    >
      <p className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="font-semibold text-white">{t('admin.common.quote', { text: data.subject })}</span>
        <StatusPill status={data.status} />
      </p>
      <ProgressBar value={fraction} label={t('admin.email.handled')} />
      <p className="text-sm tabular-nums text-slate-300">{counts(t, data)}</p>
    </div>
  );
}

function StatusPill({ status }: { status: EmailCampaign['status'] }) {
  const { t } = useT();
  const lookClassName =
    status === 'done'
      ? 'bg-emerald-500/15 text-emerald-200'
      : status === 'failed'
        ? 'bg-red-500/15 text-red-200'
        : 'bg-brand-500/15 text-violet-200';
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${lookClassName}`}>{t(STATUS[status])}</span>;
}

function RecentCampaigns() {
  const { t } = useT();
  const { data, isPending, isError } = useEmailCampaigns();
  return (
    <Panel id="campaigns-heading" title={t('admin.email.recent')}>
      {!data ? (
        <LoadState pending={isPending} error={isError} failed="admin.load.campaigns" height="h-24" />
      ) : data.length === 0 ? (
        <EmptyState title={t('admin.email.none')} />
      ) : (
        <ul className="flex flex-col divide-y divide-white/5" data-testid="campaigns">
          {data.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm">
              <div className="min-w-0">
                <p className="truncate font-semibold text-white">{c.subject}</p>
                <p className="text-slate-400">
                  {c.target === 'owners' ? t('admin.email.toOwners') : t('admin.email.toPlayers')} · {formatDate(c.createdAt)} ·{' '}
                  {counts(t, c)}
                </p>
              </div>
              <StatusPill status={c.status} />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
