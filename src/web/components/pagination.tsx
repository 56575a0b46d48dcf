import { useT } from '../i18n/use-t';
import { Button } from './button';

/**
 * Previous / Next with "Page x of y"; hidden when everything fits on one page. Lists that run
 * newest first name the buttons "Newer" and "Older"; `compact` gives the smaller buttons of the
 * dense admin panels.
 */
export function Pagination({
  page,
  pages,
  onPage,
  label,
  previous,
  next,
  compact = false,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label?: string;
  previous?: string;
  next?: string;
  compact?: boolean;
}) {
  const { t } = useT();
  if (pages <= 1) return null;
  const size = compact ? 'px-3 py-1.5' : '';
  return (
    <nav aria-label={label ?? t('common.pagination.label')} className="flex items-center justify-center gap-3">
      <Button variant="secondary" className={size} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {previous ?? t('common.pagination.previous')}
      </Button>
      <span className="text-sm tabular-nums text-slate-300" aria-current="page">
        {t('common.pagination.page', { page, pages })}
      </span>
      <Button variant="secondary" className={size} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {next ?? t('common.pagination.next')}
      </Button>
    </nav>
  );
}
