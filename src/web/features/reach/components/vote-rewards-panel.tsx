import { useState, type FormEvent } from 'react';
import type { RewardSettings } from '../../../../shared/schemas/vote-rewards';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { Segmented } from '../../../components/segmented';
import { TextField } from '../../../components/text-field';
import { TextAreaField } from '../../../components/textarea-field';
import { errorText } from '../../../lib/api-client';
import { useRemoveRewardTarget, useRewards, useSaveVotifier, useSaveWebhook, useSendTestVote } from '../api/rewards';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
const STATUS_TONE = { delivered: 'text-emerald-300', failed: 'text-red-300', pending: 'text-amber-200' } as const;

/**
 * "Vote rewards": each counted daily vote is sent to the owner's game server, by a signed HTTPS
 * webhook and/or Minecraft Votifier, with a test button and the delivery log.
 */
export function VoteRewardsPanel({ serverId }: { serverId: string }) {
  const rewards = useRewards(serverId);
  const test = useSendTestVote(serverId);
  const settings = rewards.data;
  const anyTarget = Boolean(settings?.webhook || settings?.votifier);
  return (
    <Panel
      id="rewards-heading"
      title="Vote rewards"
      description="Reward players in game for voting: each counted vote is sent to your server with the player's in-game name."
      action={
        <Button variant="secondary" className="min-h-11" disabled={!anyTarget || test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? 'Sending…' : 'Send test vote'}
        </Button>
      }
    >
      <div data-testid="vote-rewards" className="flex flex-col gap-6">
        <FormMessage
          error={test.isError ? errorText(test.error, 'The test vote could not be sent.') : null}
          success={test.isSuccess ? 'Test vote queued: watch the deliveries below.' : null}
        />
        {rewards.isPending ? <p className="text-sm text-slate-400">Loading…</p> : null}
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
  const save = useSaveWebhook(serverId);
  const remove = useRemoveRewardTarget(serverId);
  const [url, setUrl] = useState(current?.url ?? '');
  const submit = (event: FormEvent, rotate = false) => {
    event.preventDefault();
    save.mutate({ url: url.trim(), rotate });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2" aria-label="Webhook">
      <h3 className="font-semibold text-white">Webhook (every game)</h3>
      <p className="text-xs text-slate-400">
        JSON, signed in the <code>x-rp-signature: t=…,v1=…</code> header (HMAC-SHA256 of <code>t.body</code>), retried with backoff.
      </p>
      <TextField
        label="Webhook URL"
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
          <p>Your signing secret. Copy it now: it is shown only this once.</p>
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
        <p className="text-xs text-slate-400">Signing secret: {current.secretHint}</p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" className="min-h-11" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save webhook'}
        </Button>
        {current ? (
          <>
            <Button variant="secondary" className="min-h-11" onClick={(e) => submit(e, true)} disabled={save.isPending}>
              New secret
            </Button>
            <Button variant="ghost" className="min-h-11 text-red-300" onClick={() => remove.mutate('webhook')} disabled={remove.isPending}>
              Remove
            </Button>
          </>
        ) : null}
      </div>
      <FormMessage
        error={
          save.isError
            ? errorText(save.error, 'The webhook could not be saved.')
            : remove.isError
              ? errorText(remove.error, 'Could not remove it.')
              : null
        }
      />
    </form>
  );
}

function VotifierForm({ serverId, current }: { serverId: string; current: RewardSettings['votifier'] }) {
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
    <form onSubmit={submit} className="flex flex-col gap-2" aria-label="Votifier">
      <h3 className="font-semibold text-white">Votifier (Minecraft)</h3>
      <Segmented
        label="Votifier version"
        options={[
          { value: '2', label: 'NuVotifier v2 (token)' },
          { value: '1', label: 'Votifier v1 (public key)' },
        ]}
        value={version}
        onChange={setVersion}
      />
      <div className="grid gap-2 sm:grid-cols-[1fr_8rem]">
        <TextField label="Votifier host" value={host} placeholder="play.example.com" onChange={(e) => setHost(e.target.value)} />
        <TextField label="Votifier port" inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} />
      </div>
      {version === '2' ? (
        <TextField
          label="Token"
          value={secret}
          autoComplete="off"
          placeholder={current?.version === 2 ? `Saved (${current.keyHint}); paste again to change` : 'From NuVotifier’s config.yml'}
          onChange={(e) => setSecret(e.target.value)}
        />
      ) : (
        <TextAreaField
          label="Public key"
          rows={4}
          maxLength={2000}
          value={secret}
          placeholder={
            current?.version === 1 ? `Saved (${current.keyHint}); paste again to change` : 'The contents of plugins/Votifier/rsa/public.key'
          }
          onChange={(e) => setSecret(e.target.value)}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" className="min-h-11" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save Votifier'}
        </Button>
        {current ? (
          <Button variant="ghost" className="min-h-11 text-red-300" onClick={() => remove.mutate('votifier')} disabled={remove.isPending}>
            Remove
          </Button>
        ) : null}
      </div>
      <FormMessage
        error={
          save.isError
            ? errorText(save.error, 'Votifier could not be saved.')
            : remove.isError
              ? errorText(remove.error, 'Could not remove it.')
              : null
        }
        success={save.isSuccess ? save.data : null}
      />
    </form>
  );
}

function Deliveries({ deliveries }: { deliveries: RewardSettings['deliveries'] }) {
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-semibold text-white">Deliveries</h3>
      {deliveries.length === 0 ? (
        <p className="text-sm text-slate-400">No votes sent yet. Save a target and press “Send test vote”.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-white/10">
          <table className="w-full text-left text-sm" data-testid="reward-deliveries">
            <thead className="text-xs text-slate-400">
              <tr>
                <th className="px-3 py-2 font-medium">When</th>
                <th className="px-3 py-2 font-medium">To</th>
                <th className="px-3 py-2 font-medium">Player</th>
                <th className="px-3 py-2 font-medium">Status</th>
                <th className="px-3 py-2 font-medium">Tries</th>
                <th className="px-3 py-2 font-medium">Last error</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/10">
              {deliveries.map((d) => (
                <tr key={d.id}>
                  <td className="whitespace-nowrap px-3 py-2">{when.format(new Date(d.createdAt))}</td>
                  <td className="px-3 py-2">
                    {d.kind === 'webhook' ? 'Webhook' : 'Votifier'}
                    {d.test ? <span className="ml-1 text-xs text-slate-400">(test)</span> : null}
                  </td>
                  <td className="px-3 py-2">{d.playerName ?? '—'}</td>
                  <td className={`px-3 py-2 font-semibold ${STATUS_TONE[d.status]}`}>{d.status}</td>
                  <td className="px-3 py-2 tabular-nums">{d.attempts}</td>
                  <td className="max-w-64 truncate px-3 py-2 text-slate-400" title={d.lastError ?? ''}>
                    {d.lastError ?? ''}
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
