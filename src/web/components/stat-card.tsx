import type { ReactNode } from 'react';

/** One headline number with its label and an optional line under it. */
export function StatCard({ label, value, hint, accent }: { label: string; value: ReactNode; hint?: ReactNode; accent?: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-2xl border border-white/10 bg-ink-900/80 p-4" data-testid="stat-card">
      <dt className="flex min-w-0 items-start gap-2 break-words text-xs font-semibold uppercase tracking-wide text-slate-400">
        {accent ? <span aria-hidden="true" className="mt-1 size-2 shrink-0 rounded-full" style={{ backgroundColor: accent }} /> : null}
        {label}
      </dt>
      <dd className="text-2xl font-black tabular-nums text-white">{value}</dd>
      {hint ? <dd className="break-words text-xs text-slate-400">{hint}</dd> : null}
    </div>
  );
}
