import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { registerBodySchema } from '../../../../shared/schemas/auth';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { SelectField } from '../../../components/select-field';
import { TextField } from '../../../components/text-field';
import { T, useT } from '../../../i18n/use-t';
import { validate } from '../../../lib/validate';
import { useRegister } from '../api/register';
import { useAuthSubmit } from '../hooks/use-auth-submit';
import { AuthShell } from './auth-shell';
import { ContinueWithDiscord } from './continue-with-discord';
import { DiscordSignup } from './discord-signup';
import { roleOptions } from './role-options';

/**
 * `/register`: username, password and role, or "Continue with Discord"; logs the new user in and
 * applies the post-login routing. `?discord=<token>` (Discord's return for a new account) shows
 * the form that finishes that sign-up instead.
 */
export function RegisterPage() {
  const [params] = useSearchParams();
  const discordToken = params.get('discord');
  return discordToken ? <DiscordSignup key={discordToken} token={discordToken} /> : <PasswordRegister />;
}

function PasswordRegister() {
  const { t } = useT();
  const [form, setForm] = useState({ username: '', password: '', role: '' });
  const [error, setError] = useState<string | null>(null);

  const registerMutation = useRegister();
  const { submit, finishing } = useAuthSubmit(setError);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.username.trim() || !form.password || !form.role) return setError(MSG.allFieldsRequired);
    const parsed = validate(registerBodySchema, form);
    if (parsed.error !== undefined) return setError(parsed.error);
    await submit(() => registerMutation.mutateAsync(parsed.data), MSG.registrationFailed);
  };
  const busy = registerMutation.isPending || finishing;

  return (
    <AuthShell
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <T
          id="auth.register.footer"
          components={{ link: <Link to="/login" className="font-semibold text-brand-400 hover:text-brand-500" /> }}
        />
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label={t('auth.field.username')}
          name="username"
          autoComplete="username"
          maxLength={LIMITS.usernameMax}
          value={form.username}
          onChange={set('username')}
          hint={t('auth.field.usernameHint', { min: LIMITS.usernameMin, max: LIMITS.usernameMax })}
          aria-required="true"
        />
        <TextField
          label={t('auth.field.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          maxLength={LIMITS.passwordMax}
          value={form.password}
          onChange={set('password')}
          hint={t('auth.field.passwordHint', { min: LIMITS.passwordMin })}
          aria-required="true"
        />
        <SelectField
          label={t('auth.field.role')}
          name="role"
          value={form.role}
          onChange={set('role')}
          options={roleOptions(t)}
          aria-required="true"
        />
        <FormMessage error={error} />
        <Button type="submit" disabled={busy} className="mt-1 w-full">
          {busy ? t('auth.register.creating') : t('auth.register.submit')}
        </Button>
      </form>
      <div className="mt-4">
        <ContinueWithDiscord />
      </div>
    </AuthShell>
  );
}
