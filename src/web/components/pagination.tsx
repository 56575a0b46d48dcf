import { Button } from './button';

/**
 * Previous / Next with "Page x of y"; hidden when everything fits on one page. Lists that run
 * newest first name the buttons "Newer" and "Older".
 */
export function Pagination({
  page,
  pages,
  onPage,
  label = 'Pagination',
  previous = '← Previous',
  next = 'Next →',
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label?: string;
  previous?: string;
  next?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {previous}
      </Button>
      <span className="text-sm tabular-nums text-slate-300" aria-current="page">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {next}
      </Button>
    </nav>
  );
}
