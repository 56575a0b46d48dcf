import { Link } from 'react-router';
import { MSG } from '../../../../shared/messages';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { T, useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useResendConfirmation } from '../api/resend-confirmation';

/**
 * Why a logged-in account cannot join, vote or review yet, and the one step that fixes it: send the
 * confirmation link again (or add an address first). Renders nothing once the address is confirmed.
 */
export function ConfirmEmailNotice({ className = '' }: { className?: string }) {
  const { t } = useT();
  const session = useSession();
  const resend = useResendConfirmation();
  const user = session?.user;
  if (!user || user.emailConfirmed) return null;
  return (
    <div
      role="region"
      aria-label={t('auth.confirmNotice.label')}
      data-testid="confirm-email-notice"
      className={`flex flex-col gap-2 rounded-xl border border-amber-400/30 bg-amber-400/10 p-3.5 text-sm text-amber-100 ${className}`}
    >
      {user.email ? (
        <p>
          <T id="auth.confirmNotice.sent" components={{ email: <strong className="break-all">{user.email}</strong> }} />
        </p>
      ) : (
        <p>{t('auth.confirmNotice.noEmail')}</p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        {user.email ? (
          <Button variant="secondary" className="min-h-11" disabled={resend.isPending} onClick={() => resend.mutate()}>
            {resend.isPending ? t('auth.confirmNotice.sending') : t('auth.confirmNotice.resend')}
          </Button>
        ) : null}
        <Link to="/update-email" className="inline-flex min-h-11 items-center px-2 font-semibold text-brand-300 hover:underline">
          {user.email ? t('auth.confirmNotice.otherAddress') : t('auth.confirmNotice.addEmail')}
        </Link>
      </div>
      <FormMessage
        success={resend.isSuccess ? resend.data : null}
        error={resend.isError ? errorText(resend.error, MSG.confirmEmailFirst) : null}
      />
    </div>
  );
}
