import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DISCORD_MSG } from '../../../../shared/discord';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { discordSignupBodySchema, type DiscordSignupInfo } from '../../../../shared/schemas/discord';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { SelectField } from '../../../components/select-field';
import { Skeleton } from '../../../components/skeleton';
import { TextField } from '../../../components/text-field';
import { useMessageText } from '../../../i18n/messages';
import { T, useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { validate } from '../../../lib/validate';
import { useCompleteDiscordSignup } from '../api/complete-discord-signup';
import { useDiscordSignup } from '../api/get-discord-signup';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { AuthShell } from './auth-shell';
import { ContinueWithDiscord } from './continue-with-discord';
import { DiscordLogo } from './discord-button';
import { roleOptions } from './role-options';

function Shell({ subtitle, children }: { subtitle: string; children: ReactNode }) {
  const { t } = useT();
  return (
    <AuthShell
      title={t('auth.signup.title')}
      subtitle={subtitle}
      footer={
        <T
          id="auth.register.footer"
          components={{ link: <Link to="/login" className="font-semibold text-brand-400 hover:text-brand-500" /> }}
        />
      }
    >
      {children}
    </AuthShell>
  );
}

/**
 * `/register?discord=<token>`: Discord said who this is and no account here has that Discord
 * account yet. The person picks a username (the one made from their Discord name is filled in)
 * and a role; an expired sign-up offers to continue with Discord again.
 */
export function DiscordSignup({ token }: { token: string }) {
  const { t } = useT();
  const info = useDiscordSignup(token);
  if (info.isPending) {
    return (
      <Shell subtitle={t('auth.signup.loadingSubtitle')}>
        <div aria-busy="true" className="flex flex-col gap-4">
          <p className="sr-only">{t('auth.signup.loading')}</p>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-11 w-full" />
        </div>
      </Shell>
    );
  }
  if (info.isError) {
    return (
      <Shell subtitle={t('auth.signup.failedSubtitle')}>
        <div className="flex flex-col gap-4">
          <FormMessage error={errorText(info.error, DISCORD_MSG.signupExpired)} />
          <ContinueWithDiscord divider={false} />
        </div>
      </Shell>
    );
  }
  return <SignupForm token={token} info={info.data} />;
}

/** Whether the Discord account's e-mail counts as confirmed here, or a link goes out to confirm it. */
function EmailNote({ info }: { info: DiscordSignupInfo }) {
  const { t } = useT();
  if (!info.email) {
    return <p className="text-slate-400">{t('auth.signup.noEmail')}</p>;
  }
  const email = <strong className="break-all text-white">{info.email}</strong>;
  return info.emailVerified ? (
    <p className="flex items-start gap-2 text-emerald-200" data-testid="discord-email-confirmed">
      <svg viewBox="0 0 20 20" aria-hidden="true" className="mt-0.5 size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="2.5">
        <path d="m4 10.5 4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span>
        <T id="auth.signup.emailConfirmed" components={{ email }} />
      </span>
    </p>
  ) : (
    <p className="text-amber-100" data-testid="discord-email-pending">
      <T id="auth.signup.emailPending" components={{ email }} />
    </p>
  );
}

function SignupForm({ token, info }: { token: string; info: DiscordSignupInfo }) {
  const { t } = useT();
  const message = useMessageText();
  const [username, setUsername] = useState(info.suggestedUsername);
  const [role, setRole] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [usernameError, setUsernameError] = useState<string | null>(null);
  const signup = useCompleteDiscordSignup();
  // A username taken meanwhile belongs to its field: the person picks another and sends again.
  const { submit, finishing } = useAuthSubmit((message) => {
    const onField = message === MSG.usernameTaken || message === MSG.usernameInvalid;
    setUsernameError(onField ? message : null);
    setError(onField ? null : message);
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setUsernameError(null);
    if (!username.trim() || !role) return setError(MSG.allFieldsRequired);
    const parsed = validate(discordSignupBodySchema, { token, username, role });
    if (parsed.error !== undefined) return setUsernameError(parsed.error);
    await submit(() => signup.mutateAsync(parsed.data), MSG.registrationFailed, { next: info.returnTo });
  };
  const busy = signup.isPending || finishing;
  const expired = error === DISCORD_MSG.signupExpired;

  return (
    <Shell subtitle={t('auth.signup.subtitle')}>
      <div className="mb-5 flex flex-col gap-3 rounded-xl border border-[#5865F2]/40 bg-[#5865F2]/10 p-3.5 text-sm">
        <div className="flex items-center gap-3">
          <span className="grid size-10 shrink-0 place-items-center rounded-full bg-[#5865F2] text-white">
            <DiscordLogo className="size-5" />
          </span>
          <p className="min-w-0 text-slate-300">
            <T
              id="auth.signup.signedInAs"
              components={{ name: <strong className="block truncate text-base text-white">{info.discordName}</strong> }}
            />
          </p>
        </div>
        <EmailNote info={info} />
      </div>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label={t('auth.field.username')}
          name="username"
          autoComplete="username"
          maxLength={LIMITS.usernameMax}
          value={username}
          onChange={(e) => {
            setUsername(e.target.value);
            setUsernameError(null);
          }}
          hint={t('auth.field.usernameHint', { min: LIMITS.usernameMin, max: LIMITS.usernameMax })}
          error={usernameError ? message(usernameError) : null}
          aria-required="true"
        />
        <SelectField
          label={t('auth.field.role')}
          name="role"
          value={role}
          onChange={(e) => setRole(e.target.value)}
          options={roleOptions(t)}
          aria-required="true"
        />
        <FormMessage error={error} />
        {expired ? (
          <ContinueWithDiscord divider={false} />
        ) : (
          <Button type="submit" disabled={busy} className="mt-1 w-full">
            {busy ? t('auth.register.creating') : t('auth.signup.submit')}
          </Button>
        )}
      </form>
    </Shell>
  );
}
