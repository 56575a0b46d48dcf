import { useState, type FormEvent } from 'react';
import { DISCORD_MSG } from '../../../../shared/discord';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { setPasswordBodySchema } from '../../../../shared/schemas/discord';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { validate } from '../../../lib/validate';
import { useSetPassword } from '../api/set-password';

/** A first password for an account made with Discord (typed twice), so it has a way in besides Discord. */
export function SetPasswordForm({ onDone }: { onDone: (message: string) => void }) {
  const { t } = useT();
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useSetPassword();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!newPassword || !confirm) return setError(MSG.allFieldsRequired);
    if (newPassword !== confirm) return setError(MSG.passwordsDontMatch);
    const parsed = validate(setPasswordBodySchema, { newPassword });
    if (parsed.error !== undefined) return setError(parsed.error);
    setError(null);
    try {
      await save.mutateAsync(parsed.data.newPassword);
      onDone(DISCORD_MSG.passwordSet);
    } catch (err) {
      setError(errorText(err, MSG.internal));
    }
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="set-password-heading"
      className="flex flex-col gap-3 rounded-xl border border-white/10 p-4"
    >
      <h3 id="set-password-heading" className="font-semibold text-white">
        {t('auth.setPassword.title')}
      </h3>
      <TextField
        label={t('auth.field.newPassword')}
        name="new-password"
        type="password"
        autoComplete="new-password"
        maxLength={LIMITS.passwordMax}
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
        hint={t('auth.field.passwordHint', { min: LIMITS.passwordMin })}
      />
      <TextField
        label={t('auth.field.confirmPassword')}
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <FormMessage error={error} />
      <Button type="submit" disabled={save.isPending} className="w-full sm:w-auto sm:self-start">
        {save.isPending ? t('auth.setPassword.saving') : t('auth.setPassword.submit')}
      </Button>
    </form>
  );
}
