import { useRegisterSW } from 'virtual:pwa-register/react';
import { useT } from '../i18n/use-t';
import { Button } from './button';

/**
 * Registers the service worker and, when a new version is waiting, offers to switch to it
 * (an installed app would otherwise keep the old one). Refresh activates the waiting worker and reloads the page.
 */
export function UpdateBanner() {
  const { t } = useT();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisterError: (error: unknown) => console.warn('service worker registration failed', error),
  });
  if (!needRefresh) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto flex max-w-xl flex-col gap-3 rounded-2xl border border-brand-400/40 bg-ink-800 p-4 shadow-2xl sm:flex-row sm:items-center"
    >
      <p className="flex-1 text-sm text-slate-100">{t('common.update.available')}</p>
      <div className="flex gap-2">
        <Button variant="ghost" onClick={() => setNeedRefresh(false)}>
          {t('common.update.later')}
        </Button>
        <Button onClick={() => void updateServiceWorker(true)}>{t('common.update.refresh')}</Button>
      </div>
    </div>
  );
}
