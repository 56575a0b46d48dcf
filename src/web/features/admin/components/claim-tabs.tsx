import { CLAIM_FILTERS, type ClaimFilter } from '../../../../shared/schemas/game-status';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';

export const CLAIM_LABELS: Record<ClaimFilter, MessageId> = {
  all: 'admin.claims.filter.all',
  pending: 'admin.claims.filter.pending',
  verified: 'admin.claims.filter.verified',
  ended: 'admin.claims.filter.ended',
  flagged: 'admin.claims.filter.flagged',
};

/**
 * The claim filters with how many each holds: one row on a wide screen; on a phone a grid of three
 * with the count under the name (five pills wrapped freely spill over three ragged rows).
 */
export function ClaimTabs({
  value,
  counts,
  onChange,
}: {
  value: ClaimFilter;
  counts: Record<ClaimFilter, number> | undefined;
  onChange: (value: ClaimFilter) => void;
}) {
  const { t } = useT();
  return (
    <div
      role="group"
      aria-label={t('admin.claims.filter.label')}
      className="grid grid-cols-3 gap-1 rounded-xl border border-white/10 bg-ink-950/60 p-1 sm:inline-flex sm:flex-wrap sm:self-start"
    >
      {CLAIM_FILTERS.map((f) => {
        const active = f === value;
        return (
          <button
            key={f}
            type="button"
            aria-pressed={active}
            onClick={() => onChange(f)}
            className={`flex min-h-11 min-w-0 flex-col items-center justify-center gap-0.5 rounded-lg px-1.5 py-1.5 text-sm font-semibold transition sm:min-h-0 sm:flex-row sm:gap-1.5 sm:px-3 ${
              active ? 'bg-brand-600 text-white shadow' : 'text-slate-300 hover:bg-white/5 hover:text-white'
            }`}
          >
            {t(CLAIM_LABELS[f])}
            {counts ? ' ' : null}
            {counts ? (
              <span className={`rounded-full px-1.5 text-xs tabular-nums ${active ? 'bg-white/20' : 'bg-white/10 text-slate-400'}`}>
                {formatNumber(counts[f])}
              </span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
