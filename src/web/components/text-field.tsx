import { useId, type InputHTMLAttributes } from 'react';

/** A labelled input; the label is always visible and tied to the input for screen readers. */
export function TextField({
  label,
  hint,
  className = '',
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        id={id}
        className="w-full min-w-0 rounded-xl border border-white/10 bg-ink-950/70 px-3.5 py-2.5 text-slate-100 placeholder:text-slate-500 focus:border-brand-400 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-400"
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...props}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
