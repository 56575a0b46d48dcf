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
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { validate } from '../../../lib/validate';
import { useEmailCampaign } from '../api/get-email-campaign';
import { useEmailCampaigns } from '../api/get-email-campaigns';
import { useSendEmail } from '../api/send-email';
import { AccessDenied } from './admin-page';
import { LoadState } from './load-state';

const TARGETS = [
  { value: '', label: 'Choose who gets it…' },
  { value: 'owners', label: 'All server owners' },
  { value: 'players', label: 'All players' },
];
const CONTENT_MAX = 20_000;

/** `/admin/email`: one e-mail to every owner or every player, with its progress. */
export function EmailPage() {
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
        <h1 className="text-3xl font-black tracking-tight text-white">Send Mass Email</h1>
        <p className="text-slate-400">
          One e-mail to every server owner or every player. Each carries an unsubscribe link; people who unsubscribed or have no address are
          skipped.
        </p>
      </header>
      <Panel id="compose-heading" title="Compose">
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
          <SelectField label="Send to" options={TARGETS} value={target} onChange={(e) => setTarget(e.target.value)} />
          <TextField label="Subject" value={subject} maxLength={150} onChange={(e) => setSubject(e.target.value)} />
          <TextAreaField label="Content" value={content} maxLength={CONTENT_MAX} rows={8} onChange={(e) => setContent(e.target.value)} />
          <FormMessage error={error} />
          <div>
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? 'Sending…' : 'Send'}
            </Button>
          </div>
        </form>
        {campaignId ? <CampaignProgress id={campaignId} /> : null}
      </Panel>
      <RecentCampaigns />
    </div>
  );
}

function counts(c: EmailCampaign): string {
  return `${c.sent} sent · ${c.skipped} skipped · ${c.failed} failed of ${c.total}`;
}

const STATUS: Record<EmailCampaign['status'], string> = { queued: 'Queued', sending: 'Sending', done: 'Done', failed: 'Failed' };

/** Polls the campaign until it is done: sent, skipped and failed of the total. */
function CampaignProgress({ id }: { id: string }) {
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
        <span className="font-semibold text-white">“{data.subject}”</span>
        <StatusPill status={data.status} />
      </p>
      <ProgressBar value={fraction} label="E-mails handled" />
      <p className="text-sm tabular-nums text-slate-300">{counts(data)}</p>
    </div>
  );
}

function StatusPill({ status }: { status: EmailCampaign['status'] }) {
  const look =
    status === 'done'
      ? 'bg-emerald-500/15 text-emerald-200'
      : status === 'failed'
        ? 'bg-red-500/15 text-red-200'
        : 'bg-brand-500/15 text-violet-200';
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${look}`}>{STATUS[status]}</span>;
}

function RecentCampaigns() {
  const { data, isPending, isError } = useEmailCampaigns();
  return (
    <Panel id="campaigns-heading" title="Recent e-mails">
      {!data ? (
        <LoadState pending={isPending} error={isError} label="recent e-mails" height="h-24" />
      ) : data.length === 0 ? (
        <EmptyState title="No e-mails sent yet" />
      ) : (
        <ul className="flex flex-col divide-y divide-white/5" data-testid="campaigns">
          {data.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm">
              <div className="min-w-0">
                <p className="truncate font-semibold text-white">{c.subject}</p>
                <p className="text-slate-400">
                  To {c.target === 'owners' ? 'owners' : 'players'} · {formatDate(c.createdAt)} · {counts(c)}
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
