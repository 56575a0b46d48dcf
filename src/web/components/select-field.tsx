import { useId, type SelectHTMLAttributes } from 'react';

/** A labelled native select: keyboard and screen-reader friendly on every platform. */
export function SelectField({
  label,
  options,
  className = '',
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: ReadonlyArray<{ value: string; label: string }> }) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <select
        id={id}
        className="rounded-xl border border-white/10 bg-ink-950/70 px-3 py-2.5 text-slate-100 focus:border-brand-400 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-400"
        {...props}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
