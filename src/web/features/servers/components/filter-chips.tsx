import type { FilterCategory } from '../../../../shared/schemas/server';
import { useFilterLabels } from '../../../i18n/filter-label';

/**
 * Every filter as a toggle chip, grouped by category (one fieldset each). Used to narrow a search
 * and to tag a server on the dashboard.
 */
export function FilterChips({
  categories,
  selected,
  onToggle,
}: {
  categories: readonly FilterCategory[];
  selected: readonly string[];
  onToggle: (filter: string) => void;
}) {
  const label = useFilterLabels();
  return (
    <div className="flex flex-col gap-4">
      {categories.map((category) => (
        <fieldset key={category.category} className="flex flex-col gap-2">
          <legend className="mb-2 text-xs font-semibold uppercase tracking-wider text-slate-400">
            {label.category(category.category)}
          </legend>
          <div className="flex flex-wrap gap-1.5">
            {category.filters.map((filter) => {
              const on = selected.includes(filter);
              return (
                <button
                  key={filter}
                  type="button"
                  aria-pressed={on}
                  onClick={() => onToggle(filter)}
                  className={`rounded-full border px-3 py-1 text-sm transition ${
                    on
                      ? 'border-brand-400 bg-brand-500/25 text-white'
                      : 'border-white/10 bg-white/5 text-slate-300 hover:border-white/25 hover:text-white'
                  }`}
                >
                  {on ? <span aria-hidden="true">✓ </span> : null}
                  {label.filter(filter)}
                </button>
              );
            })}
          </div>
        </fieldset>
      ))}
    </div>
  );
}
