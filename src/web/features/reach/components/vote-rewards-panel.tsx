import { useState, type FormEvent } from 'react';
import type { RewardSettings } from '../../../../shared/schemas/vote-rewards';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { Segmented } from '../../../components/segmented';
import { TextField } from '../../../components/text-field';
import { TextAreaField } from '../../../components/textarea-field';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useMessageText } from '../../../i18n/messages';
import { T, useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { dateFormat } from '../../../lib/format';
import { useRemoveRewardTarget, useRewards, useSaveVotifier, useSaveWebhook, useSendTestVote } from '../api/rewards';

const STATUS_TONE = { delivered: 'text-emerald-300', failed: 'text-red-300', pending: 'text-amber-200' } as const;
const STATUS_TEXT: Record<keyof typeof STATUS_TONE, MessageId> = {
  delivered: 'owner.rewards.status.delivered',
  failed: 'owner.rewards.status.failed',
  pending: 'owner.rewards.status.pending',
};

/**
 * "Vote rewards": each counted daily vote is sent to the owner's game server, by a signed HTTPS
 * webhook and/or Minecraft Votifier, with a test button and the delivery log.
 */
export function VoteRewardsPanel({ serverId }: { serverId: string }) {
  const { t } = useT();
  const rewards = useRewards(serverId);
  const test = useSendTestVote(serverId);
  const settings = rewards.data;
  const anyTarget = Boolean(settings?.webhook || settings?.votifier);
  return (
    <Panel
      id="rewards-heading"
      title={t('owner.rewards.title')}
      description={t('owner.rewards.intro')}
      action={
        <Button variant="secondary" className="min-h-11" disabled={!anyTarget || test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? t('owner.rewards.sending') : t('owner.rewards.test')}
        </Button>
      }
    >
      <div data-testid="vote-rewards" className="flex flex-col gap-6">
        <FormMessage
          error={test.isError ? errorText(test.error, t('owner.rewards.testFailed')) : null}
          success={test.isSuccess ? t('owner.rewards.testQueued') : null}
        />
        {rewards.isPending ? <p className="text-sm text-slate-400">{t('owner.rewards.loading')}</p> : null}
        {settings ? (
          <>
            {/* Not re-keyed by what is saved: the secret shown once must outlive the refetch after saving. */}
            <WebhookForm serverId={serverId} current={settings.webhook} />
            <VotifierForm serverId={serverId} current={settings.votifier} />
            <Deliveries deliveries={settings.deliveries} />
          </>
        ) : null}
      </div>
    </Panel>
  );
}

function WebhookForm({ serverId, current }: { serverId: string; current: RewardSettings['webhook'] }) {
  const { t } = useT();
  const save = useSaveWebhook(serverId);
  const remove = useRemoveRewardTarget(serverId);
  const [url, setUrl] = useState(current?.url ?? '');
  const submit = (event: FormEvent, rotate = false) => {
    event.preventDefault();
    save.mutate({ url: url.trim(), rotate });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2" aria-label={t('owner.rewards.webhook')}>
      <h3 className="font-semibold text-white">{t('owner.rewards.webhookTitle')}</h3>
      <p className="text-xs text-slate-400">
        <T id="owner.rewards.webhookHelp" components={{ code: <code /> }} />
      </p>
      <TextField
        label={t('owner.rewards.webhookUrl')}
        type="url"
        inputMode="url"
        placeholder="https://your.server/votes"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
      />
      {save.data?.secret ? (
        <div
          role="status"
          className="flex flex-col gap-2 rounded-xl border border-emerald-500/30 bg-emerald-500/10 p-3 text-sm text-emerald-100"
        >
          <p>{t('owner.rewards.secretNew')}</p>
          <div className="flex items-stretch gap-2">
            <code
              data-testid="webhook-secret"
              className="min-w-0 flex-1 select-all break-all rounded-lg bg-black/30 px-3 py-2 font-mono text-xs"
            >
              {save.data.secret}
            </code>
            <CopyButton text={save.data.secret} />
          </div>
        </div>
      ) : current ? (
        <p className="text-xs text-slate-400">{t('owner.rewards.secretHint', { hint: current.secretHint })}</p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" className="min-h-11" disabled={save.isPending}>
          {save.isPending ? t('owner.rewards.saving') : t('owner.rewards.saveWebhook')}
        </Button>
        {current ? (
          <>
            <Button variant="secondary" className="min-h-11" onClick={(e) => submit(e, true)} disabled={save.isPending}>
              {t('owner.rewards.newSecret')}
            </Button>
            <Button variant="ghost" className="min-h-11 text-red-300" onClick={() => remove.mutate('webhook')} disabled={remove.isPending}>
              {t('owner.rewards.remove')}
            </Button>
          </>
        ) : null}
      </div>
      <FormMessage
        error={
          save.isError
            ? errorText(save.error, t('owner.rewards.webhookFailed'))
            : remove.isError
              ? errorText(remove.error, t('owner.rewards.removeFailed'))
              : null
        }
      />
    </form>
  );
}

function VotifierForm({ serverId, current }: { serverId: string; current: RewardSettings['votifier'] }) {
  const { t } = useT();
  const save = useSaveVotifier(serverId);
  const remove = useRemoveRewardTarget(serverId);
  const [version, setVersion] = useState<'2' | '1'>(current?.version === 1 ? '1' : '2');
  const [host, setHost] = useState(current?.host ?? '');
  const [port, setPort] = useState(String(current?.port ?? 8192));
  const [secret, setSecret] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = { host: host.trim(), port: Number(port) };
    save.mutate(version === '2' ? { version: 2, ...target, token: secret.trim() } : { version: 1, ...target, publicKey: secret.trim() });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2" aria-label={t('owner.rewards.votifier')}>
      <h3 className="font-semibold text-white">{t('owner.rewards.votifierTitle')}</h3>
      <Segmented
        label={t('owner.rewards.votifierVersion')}
        options={[
          { value: '2', label: t('owner.rewards.v2') },
          { value: '1', label: t('owner.rewards.v1') },
        ]}
        value={version}
        onChange={setVersion}
      />
      <div className="grid gap-2 sm:grid-cols-[1fr_8rem]">
        <TextField label={t('owner.rewards.host')} value={host} placeholder="play.example.com" onChange={(e) => setHost(e.target.value)} />
        <TextField label={t('owner.rewards.port')} inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} />
      </div>
      {version === '2' ? (
        <TextField
          label={t('owner.rewards.token')}
          value={secret}
          autoComplete="off"
          placeholder={
            current?.version === 2 ? t('owner.rewards.savedKey', { hint: current.keyHint }) : t('owner.rewards.tokenPlaceholder')
          }
          onChange={(e) => setSecret(e.target.value)}
        />
      ) : (
        <TextAreaField
          label={t('owner.rewards.publicKey')}
          rows={4}
          maxLength={2000}
          value={secret}
          placeholder={
            current?.version === 1 ? t('owner.rewards.savedKey', { hint: current.keyHint }) : t('owner.rewards.publicKeyPlaceholder')
          }
          onChange={(e) => setSecret(e.target.value)}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" className="min-h-11" disabled={save.isPending}>
          {save.isPending ? t('owner.rewards.saving') : t('owner.rewards.saveVotifier')}
        </Button>
        {current ? (
          <Button variant="ghost" className="min-h-11 text-red-300" onClick={() => remove.mutate('votifier')} disabled={remove.isPending}>
            {t('owner.rewards.remove')}
          </Button>
        ) : null}
      </div>
      <FormMessage
        error={
          save.isError
            ? errorText(save.error, t('owner.rewards.votifierFailed'))
            : remove.isError
              ? errorText(remove.error, t('owner.rewards.removeFailed'))
              : null
        }
        success={save.isSuccess ? save.data : null}
      />
    </form>
  );
}

function Deliveries({ deliveries }: { deliveries: RewardSettings['deliveries'] }) {
  const { t } = useT();
  const message = useMessageText();
  const when = dateFormat({ dateStyle: 'short', timeStyle: 'short' });
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-semibold text-white">{t('owner.rewards.deliveries')}</h3>
      {deliveries.length === 0 ? (
        <p className="text-sm text-slate-400">{t('owner.rewards.noDeliveries')}</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-white/10">
          <table className="w-full text-left text-sm" data-testid="reward-deliveries">
            <thead className="text-xs text-slate-400">
              <tr>
                <th className="px-3 py-2 font-medium">{t('owner.rewards.col.when')}</th>
                <th className="px-3 py-2 font-medium">{t('owner.rewards.col.to')}</th>
                <th className="px-3 py-2 font-medium">{t('owner.rewards.col.player')}</th>
                <th className="px-3 py-2 font-medium">{t('owner.rewards.col.status')}</th>
                <th className="px-3 py-2 font-medium">{t('owner.rewards.col.tries')}</th>
                <th className="px-3 py-2 font-medium">{t('owner.rewards.col.lastError')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/10">
              {deliveries.map((d) => (
                <tr key={d.id}>
                  <td className="whitespace-nowrap px-3 py-2">{when.format(new Date(d.createdAt))}</td>
                  <td className="px-3 py-2">
                    {d.kind === 'webhook' ? t('owner.rewards.webhook') : t('owner.rewards.votifier')}
                    {d.test ? <span className="ml-1 text-xs text-slate-400">{t('owner.rewards.testTag')}</span> : null}
                  </td>
                  <td className="px-3 py-2">{d.playerName ?? '—'}</td>
                  <td className={`px-3 py-2 font-semibold ${STATUS_TONE[d.status]}`}>{t(STATUS_TEXT[d.status])}</td>
                  <td className="px-3 py-2 tabular-nums">{d.attempts}</td>
                  <td className="max-w-64 truncate px-3 py-2 text-slate-400" title={d.lastError ? message(d.lastError) : ''}>
                    {d.lastError ? message(d.lastError) : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
