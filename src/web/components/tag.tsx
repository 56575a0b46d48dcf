import type { ReactNode } from 'react';

/**
 * A small label (a server's filters). `inherit` takes the surrounding text colour, for pages drawn
 * in an owner's colours.
 */
export function Tag({ children, tone = 'default' }: { children: ReactNode; tone?: 'default' | 'inherit' }) {
  const lookClassName = tone === 'inherit' ? 'border-current/30 bg-current/5' : 'border-white/10 bg-white/5 text-slate-300';
  return (
    <span className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium ${lookClassName}`}>{children}</span>
  );
}
