import type { ReactNode } from 'react';
import { useT } from '../i18n/use-t';
import { Button } from './button';
import { Dialog } from './dialog';
import { FormMessage } from './form-message';

/** Asks before something that cannot be undone (deleting a user or a server). */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  pending = false,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useT();
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div className="flex flex-col gap-4">
        <div className="text-sm text-slate-300">{children}</div>
        <FormMessage error={error} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose} disabled={pending}>
            {cancelLabel ?? t('common.confirm.cancel')}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending}>
            {pending ? t('common.confirm.working') : confirmLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
