import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { updateEmailBodySchema } from '../../../../shared/schemas/auth';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-client';
import { updateSessionUser, useSession } from '../../../lib/session';
import { validate } from '../../../lib/validate';
import { useUpdateEmail } from '../api/update-email';
import { postLoginPath } from '../hooks/post-login-path';
import { AuthShell } from './auth-shell';

/** `/update-email`: the address for password resets and news; then the post-login routing continues. */
export function UpdateEmailPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState(session?.user.email ?? '');
  const [error, setError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const update = useUpdateEmail();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = validate(updateEmailBodySchema, { email });
    if (parsed.error !== undefined) return setError(parsed.error);
    setError(null);
    try {
      const user = await update.mutateAsync(parsed.data.email);
      updateSessionUser(user);
      setFinishing(true);
      navigate(await postLoginPath(user), { replace: true });
    } catch (err) {
      setFinishing(false);
      setError(errorText(err, MSG.updateEmailFailed));
    }
  };
  const busy = update.isPending || finishing;

  return (
    <AuthShell title="Add your e-mail" subtitle="We use it for password resets and important account messages. No spam.">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={LIMITS.email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-required="true"
        />
        <FormMessage error={error} />
        <Button type="submit" disabled={busy} className="w-full">
          {busy ? 'Saving…' : 'Save e-mail'}
        </Button>
      </form>
    </AuthShell>
  );
}
