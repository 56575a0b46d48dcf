import { Button } from '../../../components/button';

/** Previous / Next with "Page x of y"; hidden when everything fits on one page. */
export function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-center gap-3">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </Button>
      <span className="text-sm tabular-nums text-slate-300" aria-current="page">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next →
      </Button>
    </nav>
  );
}
