import { Skeleton } from '../../../components/skeleton';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT } from '../../../i18n/use-t';

/** What an admin panel shows while its data loads or when it failed (`failed`: the sentence saying what did not load). */
export function LoadState({
  pending,
  error,
  failed,
  height = 'h-40',
}: {
  pending: boolean;
  error: boolean;
  failed: MessageId;
  height?: string;
}) {
  const { t } = useT();
  if (pending) return <Skeleton className={height} />;
  if (error) {
    return (
      <p role="alert" className="text-sm text-red-300">
        {t(failed)}
      </p>
    );
  }
  return null;
}
