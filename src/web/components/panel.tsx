import type { ReactNode } from 'react';

/** A titled panel: heading, optional description and action, content. */
export function Panel({
  id,
  title,
  description,
  action,
  children,
  className = '',
}: {
  id: string;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`flex flex-col gap-4 rounded-2xl border border-white/10 bg-ink-900/80 p-5 shadow-xl shadow-black/20 sm:p-6 ${className}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={id} className="text-lg font-bold text-white sm:text-xl">
            {title}
          </h2>
          {description ? <p className="mt-1 text-sm text-slate-400">{description}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
