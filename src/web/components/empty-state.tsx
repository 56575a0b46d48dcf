import type { ReactNode } from 'react';

/** What a list shows when it has nothing: a short title, a line of help and an optional action. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-white/15 bg-white/[0.02] px-6 py-10 text-center">
      <p className="font-semibold text-slate-100">{title}</p>
      {children ? <p className="max-w-md text-sm text-slate-400">{children}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
