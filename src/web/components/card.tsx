import type { ReactNode } from 'react';

/** The panel that holds forms and page content. */
export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <div className={`rounded-2xl border border-white/10 bg-ink-900/80 p-6 shadow-xl shadow-black/30 sm:p-8 ${className}`}>{children}</div>
  );
}
