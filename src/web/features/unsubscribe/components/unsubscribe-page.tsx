import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { MSG } from '../../../../shared/messages';
import { ButtonLink } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormMessage } from '../../../components/form-message';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useUnsubscribe } from '../api/unsubscribe';

/** `/unsubscribe?token=…` (public): the link of a mass e-mail; unsubscribes once and says how it went. */
export function UnsubscribePage() {
  const { t } = useT();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useUnsubscribe();
  const { mutate } = mutation;
  const sent = useRef(false);

  useEffect(() => {
    // Once per visit, even under StrictMode's double effects.
    if (sent.current || token.length < 10) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  const invalid = token.length < 10;
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-12 sm:py-16">
      <Card className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold text-white">{t('common.unsubscribe.title')}</h1>
        {invalid ? (
          <FormMessage error={MSG.unsubscribeInvalid} />
        ) : mutation.isSuccess ? (
          <FormMessage success={mutation.data || MSG.unsubscribed} />
        ) : mutation.isError ? (
          <FormMessage error={errorText(mutation.error, MSG.unsubscribeInvalid)} />
        ) : (
          <p className="text-slate-300" aria-busy="true">
            {t('common.unsubscribe.pending')}
          </p>
        )}
        <div>
          <ButtonLink to="/home" variant="secondary">
            {t('common.unsubscribe.back')}
          </ButtonLink>
        </div>
      </Card>
    </section>
  );
}
