import { Button } from '../../../components/button';

/** Previous / Next with "Page x of y" for the admin lists; hidden on a single page. */
export function Pager({ label, page, pages, onPage }: { label: string; page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3">
      <Button variant="secondary" className="px-3 py-1.5" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </Button>
      <span className="text-sm tabular-nums text-slate-300">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" className="px-3 py-1.5" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next →
      </Button>
    </nav>
  );
}
