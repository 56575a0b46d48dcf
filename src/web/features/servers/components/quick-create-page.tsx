import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { createServerBodySchema } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { validate } from '../../../lib/validate';
import { useCreateServer } from '../api/create-server';

/** Router state a page sends along when it redirects here, e.g. the dashboard with no server (an API message, shown translated). */
export interface QuickCreateState {
  notice?: string;
}

/** `/quick-create`: a name and a status message put a server on the list; then on to its dashboard. */
export function QuickCreatePage() {
  const navigate = useNavigate();
  const { t } = useT();
  const message = useMessageText();
  const notice = (useLocation().state as QuickCreateState | null)?.notice;
  const [name, setName] = useState('');
  const [statusMessage, setStatusMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateServer();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = validate(createServerBodySchema, { name, statusMessage });
    if (parsed.error !== undefined) return setError(parsed.error);
    setError(null);
    try {
      const server = await create.mutateAsync(parsed.data);
      navigate(`/dashboard/${server.id}`);
    } catch (err) {
      setError(errorText(err, MSG.internal));
    }
  };

  return (
    <section className="flex flex-1 items-start justify-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-lg">
        <Card>
          <h1 className="text-2xl font-bold text-white">{t('owner.create.title')}</h1>
          <p className="mt-1.5 mb-6 text-sm text-slate-400">{t('owner.create.intro')}</p>
          {notice ? (
            <p role="status" className="mb-4 rounded-xl border border-amber-400/30 bg-amber-400/10 px-3.5 py-2.5 text-sm text-amber-100">
              {message(notice)}
            </p>
          ) : null}
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
            <TextField
              label={t('owner.create.name')}
              value={name}
              maxLength={LIMITS.serverName}
              onChange={(e) => setName(e.target.value)}
              aria-required="true"
              hint={`${name.length}/${LIMITS.serverName}`}
            />
            <TextField
              label={t('owner.create.status')}
              value={statusMessage}
              maxLength={LIMITS.statusMessage}
              onChange={(e) => setStatusMessage(e.target.value)}
              placeholder={t('owner.create.statusPlaceholder')}
              hint={`${statusMessage.length}/${LIMITS.statusMessage}`}
            />
            <FormMessage error={error} />
            <Button type="submit" disabled={create.isPending} className="mt-1 w-full">
              {create.isPending ? t('owner.create.creating') : t('owner.create.submit')}
            </Button>
          </form>
        </Card>
      </div>
    </section>
  );
}
