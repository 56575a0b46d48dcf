import { useState, type FormEvent } from 'react';
import { MSG } from '../../../../shared/messages';
import { reportBodySchema } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FormMessage } from '../../../components/form-message';
import { TextAreaField } from '../../../components/textarea-field';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { validate } from '../../../lib/validate';
import { useReportServer } from '../api/report-server';

const REASON_MAX = 500;

/**
 * A small "Report" link for logged-in players and its reason dialog: the server itself, or one
 * review when `reviewUsername` is given (both land in the admin moderation queue).
 */
export function ReportAction({
  serverId,
  reviewUsername,
  className = '',
}: {
  serverId: string;
  reviewUsername?: string;
  className?: string;
}) {
  const { t } = useT();
  const session = useSession();
  const [open, setOpen] = useState(false);
  if (session?.user.role !== 'player') return null;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={reviewUsername ? t('server.report.reviewLabel', { username: reviewUsername }) : t('server.report.serverLabel')}
        className={`text-xs font-medium underline-offset-2 opacity-70 hover:underline hover:opacity-100 ${className}`}
      >
        {t('server.report.link')}
      </button>
      <Dialog
        open={open}
        title={reviewUsername ? t('server.report.reviewTitle') : t('server.report.serverTitle')}
        onClose={() => setOpen(false)}
      >
        <ReportForm serverId={serverId} reviewUsername={reviewUsername} onClose={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

function ReportForm({ serverId, reviewUsername, onClose }: { serverId: string; reviewUsername?: string; onClose: () => void }) {
  const { t } = useT();
  const report = useReportServer();
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ error?: string; success?: string } | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = validate(reportBodySchema, { serverId, reviewUsername, reason });
    if (parsed.error !== undefined) return setMessage({ error: parsed.error });
    try {
      await report.mutateAsync(parsed.data);
      setMessage({ success: MSG.reportThanks });
    } catch (e) {
      setMessage({ error: errorText(e, MSG.actionFailed) });
    }
  };

  if (message?.success) {
    return (
      <div className="flex flex-col gap-4">
        <FormMessage success={message.success} />
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            {t('server.report.done')}
          </Button>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4">
      <TextAreaField
        label={t('server.report.reasonLabel')}
        value={reason}
        maxLength={REASON_MAX}
        rows={4}
        placeholder={t('server.report.reasonPlaceholder')}
        onChange={(e) => setReason(e.target.value)}
      />
      <FormMessage error={message?.error} />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onClose}>
          {t('server.report.cancel')}
        </Button>
        <Button type="submit" disabled={report.isPending}>
          {report.isPending ? t('server.report.sending') : t('server.report.send')}
        </Button>
      </div>
    </form>
  );
}
