import { useId, useState } from 'react';
import { useT } from '../../../i18n/use-t';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** A colour as a picker and as `#rrggbb` text; the text may be mid-edit, only a full hex is passed on. */
export function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (hex: string) => void }) {
  const id = useId();
  const { t } = useT();
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  // The picker (or a reset) changed the value: show it in the text box too.
  if (seen !== value) {
    setSeen(value);
    setText(value);
  }
  const valid = HEX.test(text);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          value={value}
          onChange={(e) => onChange(e.target.value.toLowerCase())}
          aria-label={t('owner.color.picker', { label })}
          className="h-11 w-14 shrink-0 cursor-pointer rounded-lg border border-white/10 bg-ink-950 p-1"
        />
        <input
          id={id}
          value={text}
          maxLength={7}
          spellCheck={false}
          aria-invalid={!valid}
          onChange={(e) => {
            setText(e.target.value);
            if (HEX.test(e.target.value)) onChange(e.target.value.toLowerCase());
          }}
          className="w-full min-w-0 rounded-xl border border-white/10 bg-ink-950/70 px-3.5 py-2.5 font-mono text-slate-100 focus:border-brand-400 focus:outline-none aria-invalid:border-red-400/60"
        />
      </div>
    </div>
  );
}
