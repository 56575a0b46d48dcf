import { UI_TIMING } from '../../../../shared/limits';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';
import { useAnimatedNumber } from '../hooks/use-animated-number';
import { useLivePlayerCount } from '../hooks/use-live-player-count';
import { lastSeenPlayerCount } from '../player-count-memory';

/** The big live number: starts from what this device saw last and animates to the live count. */
export function LivePlayerCount() {
  const { t } = useT();
  const { count, isError } = useLivePlayerCount();
  const shown = useAnimatedNumber(count ?? lastSeenPlayerCount(), UI_TIMING.countAnimationMs, lastSeenPlayerCount());

  return (
    <div className="rounded-3xl border border-white/10 bg-ink-900/70 p-6 text-center shadow-2xl shadow-brand-600/10 backdrop-blur sm:p-8">
      <p className="flex items-center justify-center gap-2 text-xs font-semibold uppercase tracking-[0.2em] text-emerald-300">
        <span className="relative flex size-2.5" aria-hidden="true">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75" />
          <span className="relative inline-flex size-2.5 rounded-full bg-emerald-400" />
        </span>
        {t('landing.count.live')}
      </p>
      <p
        className="mt-3 text-6xl font-black tabular-nums tracking-tight text-white sm:text-7xl"
        data-testid="player-count"
        aria-live="polite"
        aria-atomic="true"
      >
        {formatNumber(shown)}
      </p>
      <p className="mt-2 text-sm text-slate-400">{t('landing.count.caption')}</p>
      {isError ? <CountUnavailable /> : null}
    </div>
  );
}

/** Said under the number when the live count could not be fetched. */
export function CountUnavailable() {
  const { t } = useT();
  return <p className="mt-2 text-xs text-amber-300">{t('landing.count.unavailable')}</p>;
}
