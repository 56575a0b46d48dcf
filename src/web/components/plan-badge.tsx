import { normalizePlan } from '../../shared/roles';

const LOOK = {
  Premium: 'border-amber-300/50 bg-amber-400/15 text-amber-200',
  Pro: 'border-brand-400/50 bg-brand-500/15 text-violet-200',
  '': 'border-white/15 bg-white/5 text-slate-400',
} as const;

/** The owner's plan as a small pill: Premium, Pro or "No plan" (plans compare case-insensitively). */
export function PlanBadge({ plan, className = '' }: { plan: string | null | undefined; className?: string }) {
  const normal = normalizePlan(plan);
  return (
    <span
      data-testid="plan-badge"
      className={`inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide ${LOOK[normal]} ${className}`}
    >
      {normal === 'Premium' ? '★ ' : ''}
      {normal || 'No plan'}
    </span>
  );
}
