import { useState, type FormEvent } from 'react';
import { resetPasswordBodySchema, resetRequestBodySchema } from '../../../../shared/schemas/auth';
import { MSG } from '../../../../shared/messages';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { validate } from '../../../lib/validate';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { useResetPassword } from '../api/reset-password';

/**
 * Reset Password, never by username alone: step 1 asks the username and mails a code; step 2 takes the code
 * and the new password twice. `initialCode` (from a mailed link) starts at step 2.
 */
export function ResetPasswordDialog({
  open,
  initialCode,
  onClose,
}: {
  open: boolean;
  initialCode: string | null;
  onClose: (message?: string) => void;
}) {
  const { t } = useT();
  return (
    <Dialog open={open} title={t('auth.reset.title')} onClose={() => onClose()}>
      <ResetSteps initialCode={initialCode} onDone={onClose} />
    </Dialog>
  );
}

function ResetSteps({ initialCode, onDone }: { initialCode: string | null; onDone: (message: string) => void }) {
  const [step, setStep] = useState<1 | 2>(initialCode ? 2 : 1);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  return step === 1 ? (
    <RequestStep
      onSent={(message) => {
        setSentMessage(message);
        setStep(2);
      }}
    />
  ) : (
    <CodeStep initialCode={initialCode ?? ''} notice={sentMessage} onDone={onDone} onBack={() => setStep(1)} />
  );
}

function RequestStep({ onSent }: { onSent: (message: string) => void }) {
  const { t } = useT();
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  const request = useRequestPasswordReset();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = validate(resetRequestBodySchema, { username });
    if (parsed.error !== undefined) return setError(parsed.error);
    setError(null);
    try {
      onSent(await request.mutateAsync(parsed.data.username));
    } catch (err) {
      setError(errorText(err, MSG.resetFailed));
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-slate-300">{t('auth.reset.intro')}</p>
      <TextField
        label={t('auth.field.username')}
        name="reset-username"
        autoComplete="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        autoFocus
      />
      <FormMessage error={error} />
      <Button type="submit" disabled={request.isPending}>
        {request.isPending ? t('auth.reset.sending') : t('auth.reset.send')}
      </Button>
    </form>
  );
}

function CodeStep({
  initialCode,
  notice,
  onDone,
  onBack,
}: {
  initialCode: string;
  notice: string | null;
  onDone: (message: string) => void;
  onBack: () => void;
}) {
  const [token, setToken] = useState(initialCode);
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { t } = useT();
  const reset = useResetPassword();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!token.trim() || !newPassword || !confirm) return setError(MSG.resetAllFieldsRequired);
    if (newPassword !== confirm) return setError(MSG.passwordsDontMatch);
    const parsed = validate(resetPasswordBodySchema, { token: token.trim(), newPassword });
    if (parsed.error !== undefined) return setError(parsed.error);
    setError(null);
    try {
      onDone(await reset.mutateAsync(parsed.data));
    } catch (err) {
      setError(errorText(err, MSG.resetFailed));
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <FormMessage success={notice} />
      <TextField
        label={t('auth.reset.code')}
        name="reset-code"
        autoComplete="one-time-code"
        value={token}
        onChange={(e) => setToken(e.target.value)}
        hint={t('auth.reset.codeHint')}
      />
      <TextField
        label={t('auth.field.newPassword')}
        name="new-password"
        type="password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
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
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="ghost" onClick={onBack}>
          {t('auth.reset.newCode')}
        </Button>
        <Button type="submit" disabled={reset.isPending}>
          {reset.isPending ? t('auth.reset.saving') : t('auth.reset.submit')}
        </Button>
      </div>
    </form>
  );
}
