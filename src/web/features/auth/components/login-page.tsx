import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { loginBodySchema } from '../../../../shared/schemas/auth';
import { MSG } from '../../../../shared/messages';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { T, useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { getSession } from '../../../lib/session';
import { validate } from '../../../lib/validate';
import { confirmEmail } from '../api/confirm-email';
import { getUser } from '../api/get-user';
import { useLogin } from '../api/login';
import { postLoginPath } from '../hooks/post-login-path';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { useDiscordReturn } from '../hooks/use-discord-return';
import { AuthShell } from './auth-shell';
import { ContinueWithDiscord } from './continue-with-discord';
import { Spinner } from './discord-button';
import { ResetPasswordDialog } from './reset-password-dialog';

/**
 * Opens the link mailed to a new address (`?confirm-email=<token>`) once: the outcome shows as the
 * page's notice; a logged-in user then goes on with the fresh user.
 */
function useEmailConfirmation(setNotice: (message: string) => void, setError: (message: string) => void) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('confirm-email');
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    setParams({}, { replace: true });
    confirmEmail(token).then(
      async (message) => {
        setNotice(message);
        if (getSession()) navigate(await postLoginPath(await getUser()), { replace: true });
      },
      (err: unknown) => setError(errorText(err, MSG.emailConfirmInvalid)),
    );
  }, [token, setParams, navigate, setNotice, setError]);
}

/**
 * `/login`: username and password, plus the Reset Password dialog (opened at step 2 by
 * `?reset=<code>`) and "Continue with Discord"; also where the link confirming a new e-mail
 * address lands, and where Discord brings a sign-in back (signed in, or why not).
 */
export function LoginPage() {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const resetCode = params.get('reset');
  const [resetOpen, setResetOpen] = useState(resetCode !== null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const loginMutation = useLogin();
  const { submit, finishing } = useAuthSubmit(setError);
  useEmailConfirmation(setNotice, setError);
  const { signingIn } = useDiscordReturn(setError);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const parsed = validate(loginBodySchema, { username, password });
    if (parsed.error !== undefined) return setError(MSG.allFieldsRequired);
    await submit(() => loginMutation.mutateAsync(parsed.data), MSG.loginFailed);
  };

  const closeReset = (message?: string) => {
    setResetOpen(false);
    if (message) setNotice(message);
    if (resetCode !== null) setParams({}, { replace: true });
  };
  const busy = loginMutation.isPending || finishing;

  if (signingIn) {
    return (
      <AuthShell title={t('auth.login.signingInTitle')} subtitle={t('auth.login.signingInSubtitle')}>
        <p role="status" aria-busy="true" className="flex items-center gap-3 text-sm text-slate-300">
          <Spinner className="size-5 text-[#8891f7]" />
          {t('auth.login.signingInDiscord')}
        </p>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={
        <T
          id="auth.login.footer"
          components={{ link: <Link to="/register" className="font-semibold text-brand-400 hover:text-brand-500" /> }}
        />
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label={t('auth.field.username')}
          name="username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          aria-required="true"
        />
        <TextField
          label={t('auth.field.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-required="true"
        />
        <FormMessage error={error} success={notice} />
        <Button type="submit" disabled={busy} className="mt-1 w-full">
          {busy ? t('auth.login.loggingIn') : t('auth.login.submit')}
        </Button>
        <button
          type="button"
          onClick={() => setResetOpen(true)}
          className="self-center rounded text-sm font-medium text-brand-400 hover:text-brand-500"
        >
          {t('auth.reset.title')}
        </button>
      </form>
      <div className="mt-4">
        <ContinueWithDiscord />
      </div>
      <ResetPasswordDialog open={resetOpen} initialCode={resetCode} onClose={closeReset} />
    </AuthShell>
  );
}
