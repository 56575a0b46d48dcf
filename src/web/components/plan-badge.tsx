import { normalizePlan } from '../../shared/roles';
import { useT } from '../i18n/use-t';

const PREMIUM_LOOK = 'border-amber-300/50 bg-amber-400/15 text-amber-200';
const PRO_LOOK = 'border-brand-400/50 bg-brand-500/15 text-violet-200';
const NO_PLAN_LOOK = 'border-white/15 bg-white/5 text-slate-400';
const LOOK = { Premium: PREMIUM_LOOK, Pro: PRO_LOOK, '': NO_PLAN_LOOK } as const;

/** The owner's plan as a small pill: Premium, Pro or "No plan" (plans compare case-insensitively). */
export function PlanBadge({ plan, className = '' }: { plan: string | null | undefined; className?: string }) {
  const { t } = useT();
  const normal = normalizePlan(plan);
  return (
    <span
      data-testid="plan-badge"
      className={`inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide ${LOOK[normal]} ${className}`}
    >
      {normal === 'Premium' ? '★ ' : ''}
      {normal || t('common.plan.none')}
    </span>
  );
}
