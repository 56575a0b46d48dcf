import { useId, type InputHTMLAttributes } from 'react';

/**
 * A labelled input; the label is always visible and tied to the input for screen readers. `error`
 * marks the input invalid and says why under it (announced), in place of the hint.
 */
export function TextField({
  label,
  hint,
  error,
  className = '',
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string | null }) {
  const id = useId();
  const note = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        id={id}
        className={`w-full min-w-0 rounded-xl border bg-ink-950/70 px-3.5 py-2.5 text-slate-100 placeholder:text-slate-500 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-400 ${
          error ? 'border-red-400/70 focus:border-red-400' : 'border-white/10 focus:border-brand-400'
        }`}
        aria-describedby={note}
        aria-invalid={error ? true : undefined}
        {...props}
      />
      {error ? (
        <p id={note} role="alert" className="text-xs text-red-300">
          {error}
        </p>
      ) : hint ? (
        <p id={note} className="text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
