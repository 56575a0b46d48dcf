import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

/**
 * "API keys" for the owner's read API (`/api/v1`): create one (shown once, then only its prefix),
 * see when each was last used, revoke it.
 */
export function ApiKeysPanel({ serverId }: { serverId: string }) {
  const keys = useApiKeys(serverId);
  const create = useCreateApiKey(serverId);
  const revoke = useRevokeApiKey(serverId);
  const [name, setName] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name, { onSuccess: () => setName('') });
  };

  return (
    <Panel
      id="api-keys-heading"
      title="API keys"
      description={
        <>
          Read your votes and live stats from your own plugins and bots: <code>Authorization: Bearer rpk_…</code> on{' '}
          <a href="/api/docs" className="text-brand-300 hover:underline">
            /api/v1
          </a>
          , 120 requests a minute per key.
        </>
      }
    >
      <div data-testid="api-keys" className="flex flex-col gap-4">
        {create.data ? (
          <div
            role="status"
            className="flex flex-col gap-2 rounded-xl border border-emerald-500/30 bg-emerald-500/10 p-3 text-sm text-emerald-100"
          >
            <p>Your new key. Copy it now: it is shown only this once.</p>
            <div className="flex items-stretch gap-2">
              <code
                data-testid="new-api-key"
                className="min-w-0 flex-1 select-all break-all rounded-lg bg-black/30 px-3 py-2 font-mono text-xs"
              >
                {create.data.key}
              </code>
              <CopyButton text={create.data.key} />
            </div>
          </div>
        ) : null}
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <TextField
            label="Key name"
            value={name}
            maxLength={60}
            placeholder="Vote plugin"
            onChange={(e) => setName(e.target.value)}
            className="flex-1"
          />
          <Button type="submit" className="min-h-11" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create key'}
          </Button>
        </form>
        <FormMessage error={create.isError ? errorText(create.error, 'The key could not be created.') : null} />
        {keys.isPending ? (
          <p className="text-sm text-slate-400">Loading keys…</p>
        ) : keys.data && keys.data.length > 0 ? (
          <ul className="flex flex-col divide-y divide-white/10 rounded-xl border border-white/10">
            {keys.data.map((k) => (
              <li key={k.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
                <span className="min-w-0 flex-1">
                  <span className="font-semibold text-white">{k.name}</span> <code className="text-slate-400">{k.prefix}…</code>
                  <span className="block text-xs text-slate-400">
                    Created {formatDate(k.createdAt)} · {k.lastUsedAt ? `last used ${formatDate(k.lastUsedAt)}` : 'never used'}
                  </span>
                </span>
                <Button
                  variant="ghost"
                  className="min-h-11 px-3 text-red-300"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(k.id)}
                >
                  Revoke<span className="sr-only"> {k.name}</span>
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-400">No keys yet.</p>
        )}
        <FormMessage error={revoke.isError ? errorText(revoke.error, 'The key could not be revoked.') : null} />
      </div>
    </Panel>
  );
}
