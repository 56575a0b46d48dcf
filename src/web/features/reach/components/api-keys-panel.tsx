import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import { TextField } from '../../../components/text-field';
import { T, useT } from '../../../i18n/use-t';
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
  const { t } = useT();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name, { onSuccess: () => setName('') });
  };

  return (
    <Panel
      id="api-keys-heading"
      title={t('owner.keys.title')}
      description={
        <T id="owner.keys.intro" components={{ code: <code />, link: <a href="/api/docs" className="text-brand-300 hover:underline" /> }} />
      }
    >
      <div data-testid="api-keys" className="flex flex-col gap-4">
        {create.data ? (
          <div
            role="status"
            className="flex flex-col gap-2 rounded-xl border border-emerald-500/30 bg-emerald-500/10 p-3 text-sm text-emerald-100"
          >
            <p>{t('owner.keys.newKey')}</p>
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
            label={t('owner.keys.name')}
            value={name}
            maxLength={60}
            placeholder={t('owner.keys.namePlaceholder')}
            onChange={(e) => setName(e.target.value)}
            className="flex-1"
          />
          <Button type="submit" className="min-h-11" disabled={create.isPending}>
            {create.isPending ? t('owner.keys.creating') : t('owner.keys.create')}
          </Button>
        </form>
        <FormMessage error={create.isError ? errorText(create.error, t('owner.keys.createFailed')) : null} />
        {keys.isPending ? (
          <p className="text-sm text-slate-400">{t('owner.keys.loading')}</p>
        ) : keys.data && keys.data.length > 0 ? (
          <ul className="flex flex-col divide-y divide-white/10 rounded-xl border border-white/10">
            {keys.data.map((k) => (
              <li key={k.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
                <span className="min-w-0 flex-1">
                  <span className="font-semibold text-white">{k.name}</span> <code className="text-slate-400">{k.prefix}…</code>
                  <span className="block text-xs text-slate-400">
                    {k.lastUsedAt
                      ? t('owner.keys.used', { created: formatDate(k.createdAt), used: formatDate(k.lastUsedAt) })
                      : t('owner.keys.unused', { created: formatDate(k.createdAt) })}
                  </span>
                </span>
                <Button
                  variant="ghost"
                  className="min-h-11 px-3 text-red-300"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(k.id)}
                >
                  <T id="owner.keys.revoke" values={{ name: k.name }} components={{ hidden: <span className="sr-only" /> }} />
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-400">{t('owner.keys.empty')}</p>
        )}
        <FormMessage error={revoke.isError ? errorText(revoke.error, t('owner.keys.revokeFailed')) : null} />
      </div>
    </Panel>
  );
}
