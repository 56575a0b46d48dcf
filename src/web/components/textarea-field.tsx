import { useId, type TextareaHTMLAttributes } from 'react';

/** A labelled textarea with a live "used / max" counter under it. */
export function TextAreaField({
  label,
  value,
  maxLength,
  className = '',
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; value: string; maxLength: number }) {
  const id = useId();
  const over = value.length > maxLength;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        maxLength={maxLength}
        aria-describedby={`${id}-count`}
        className="min-h-24 rounded-xl border border-white/10 bg-ink-950/70 px-3.5 py-2.5 text-slate-100 placeholder:text-slate-500 focus:border-brand-400 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-400"
        {...props}
      />
      <p id={`${id}-count`} className={`self-end text-xs tabular-nums ${over ? 'text-red-300' : 'text-slate-400'}`}>
        {value.length}/{maxLength}
      </p>
    </div>
  );
}
