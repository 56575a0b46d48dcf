import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { updateEmailBodySchema } from '../../../../shared/schemas/auth';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { updateSessionUser, useSession } from '../../../lib/session';
import { validate } from '../../../lib/validate';
import { useUpdateEmail } from '../api/update-email';
import { postLoginPath } from '../hooks/post-login-path';
import { AuthShell } from './auth-shell';

/**
 * `/update-email`: the address for password resets and news. A first address is saved at once (a
 * link to confirm it is mailed) and the post-login routing continues, or the step is skipped for
 * now (it comes back at the next login); changing an address asks for the password and takes
 * effect once the link mailed to the new address is opened.
 */
export function UpdateEmailPage() {
  const { t } = useT();
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState(session?.user.email ?? '');
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const update = useUpdateEmail();
  // Changing an existing address asks for the password; a first address does not.
  const changing = Boolean(session?.user.email);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = validate(updateEmailBodySchema, { email, ...(changing ? { currentPassword } : {}) });
    if (parsed.error !== undefined) return setError(parsed.error);
    if (changing && !currentPassword) return setError(MSG.allFieldsRequired);
    setError(null);
    try {
      const message = await update.mutateAsync(parsed.data);
      if (!changing && session) {
        const user = { ...session.user, email: parsed.data.email };
        updateSessionUser(user);
        navigate(await postLoginPath(user), { replace: true });
        return;
      }
      setSent(message);
      setCurrentPassword('');
    } catch (err) {
      setError(errorText(err, MSG.updateEmailFailed));
    }
  };

  const onContinue = async () => {
    if (!session) return;
    setFinishing(true);
    navigate(await postLoginPath(session.user, { emailPending: true }), { replace: true });
  };

  return (
    <AuthShell title={t('auth.updateEmail.title')} subtitle={t('auth.updateEmail.subtitle')}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {session?.user.email && <p className="text-sm text-slate-300">{t('auth.updateEmail.current', { email: session.user.email })}</p>}
        <TextField
          label={t('auth.field.email')}
          name="email"
          type="email"
          autoComplete="email"
          maxLength={LIMITS.email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-required="true"
        />
        {changing && (
          <TextField
            label={t('auth.field.currentPassword')}
            name="current-password"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
            aria-required="true"
            hint={t('auth.updateEmail.passwordHint')}
          />
        )}
        <FormMessage error={error} success={sent} />
        <Button type="submit" disabled={update.isPending} className="w-full">
          {update.isPending ? t('auth.updateEmail.sending') : t('auth.updateEmail.submit')}
        </Button>
        {sent && (
          <Button variant="ghost" onClick={onContinue} disabled={finishing} className="w-full">
            {t('auth.updateEmail.continue')}
          </Button>
        )}
        {!changing && !sent && session ? (
          <div className="flex flex-col gap-1 text-center">
            <Button variant="ghost" onClick={onContinue} disabled={finishing} className="w-full">
              {t('auth.updateEmail.skip')}
            </Button>
            <p className="text-xs text-slate-400">{t('auth.updateEmail.skipHint')}</p>
          </div>
        ) : null}
      </form>
    </AuthShell>
  );
}
