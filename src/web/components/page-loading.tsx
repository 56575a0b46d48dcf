import { useT } from '../i18n/use-t';
import { Skeleton } from './skeleton';

/** What a page shows while its code loads (pages are loaded on first visit, and the app's HTML shows it before any script runs). */
export function PageLoading() {
  const { t } = useT();
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8" aria-busy="true">
      <p className="sr-only">{t('common.loading.text')}</p>
      <Skeleton className="h-9 w-2/3 max-w-md" />
      <Skeleton className="mt-6 h-48 w-full" />
    </div>
  );
}
