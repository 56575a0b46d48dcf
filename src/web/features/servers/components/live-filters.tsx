import { useEffect, useState } from 'react';
import { parsePlayerBound as parseBound, PLAYER_BOUND_MAX } from '../../../../shared/schemas/server';
import { TextField } from '../../../components/text-field';
import { useT } from '../../../i18n/use-t';

/** Waits this long after the last keystroke before a typed bound changes the search. */
const TYPE_DELAY_MS = 400;

/**
 * "Online now" and "Has free slots" as switches (pressed buttons), kept on the first screen: what a
 * player looking for a game to join right now wants first. Both rest on the game poller: a server
 * not connected is neither.
 */
export function LiveToggles({
  online,
  freeSlots,
  onChange,
}: {
  online: boolean;
  freeSlots: boolean;
  onChange: (change: { online?: boolean; freeSlots?: boolean }) => void;
}) {
  const { t } = useT();
  const toggle = (label: string, on: boolean, flip: () => void) => (
    <button
      type="button"
      aria-pressed={on}
      onClick={flip}
      className={`inline-flex min-h-11 items-center gap-2 rounded-full border px-3.5 text-sm transition ${
        on
          ? 'border-emerald-400 bg-emerald-500/20 text-white'
          : 'border-white/10 bg-white/5 text-slate-300 hover:border-white/25 hover:text-white'
      }`}
    >
      <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${on ? 'bg-emerald-400' : 'bg-slate-500'}`} />
      {label}
    </button>
  );
  return (
    <div role="group" aria-label={t('browse.live.label')} className="flex flex-wrap gap-2">
      {toggle(t('browse.live.online'), online, () => onChange({ online: !online }))}
      {toggle(t('browse.live.freeSlots'), freeSlots, () => onChange({ freeSlots: !freeSlots }))}
    </div>
  );
}

/**
 * Players online now, from and to (inclusive). Typing waits a moment before it searches; a range
 * the wrong way round is named instead of searched.
 */
export function PlayerRange({
  min,
  max,
  onChange,
}: {
  min: number | undefined;
  max: number | undefined;
  onChange: (change: { minPlayers: number | undefined; maxPlayers: number | undefined }) => void;
}) {
  const { t } = useT();
  const [from, setFrom] = useState(min === undefined ? '' : String(min));
  const [to, setTo] = useState(max === undefined ? '' : String(max));
  // Back and Forward (or Clear all) change the range under the boxes.
  const [shown, setShown] = useState({ min, max });
  if (shown.min !== min || shown.max !== max) {
    setShown({ min, max });
    if (parseBound(from) !== min) setFrom(min === undefined ? '' : String(min));
    if (parseBound(to) !== max) setTo(max === undefined ? '' : String(max));
  }

  const [low, high] = [parseBound(from), parseBound(to)];
  const invalid = low === null || high === null;
  const reversed = !invalid && low !== undefined && high !== undefined && low > high;
  useEffect(() => {
    if (invalid || reversed || (low === min && high === max)) return;
    const timer = setTimeout(() => onChange({ minPlayers: low, maxPlayers: high }), TYPE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [low, high, min, max, invalid, reversed, onChange]);

  const box = (label: string, value: string, set: (v: string) => void) => (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={0}
      max={PLAYER_BOUND_MAX}
      step={1}
      value={value}
      onChange={(e) => set(e.target.value)}
      aria-invalid={reversed || parseBound(value) === null}
      aria-describedby={reversed ? 'player-range-error' : undefined}
      className="min-w-0 flex-1"
    />
  );
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-xs font-semibold uppercase tracking-wider text-slate-400">{t('browse.range.legend')}</legend>
      <div className="flex items-end gap-2">
        {box(t('browse.range.from'), from, setFrom)}
        <span aria-hidden="true" className="pb-2.5 text-slate-500">
          –
        </span>
        {box(t('browse.range.to'), to, setTo)}
      </div>
      {reversed ? (
        <p id="player-range-error" role="alert" className="text-xs text-red-300">
          {t('browse.range.reversed')}
        </p>
      ) : invalid ? (
        <p role="alert" className="text-xs text-red-300">
          {t('browse.range.invalid')}
        </p>
      ) : null}
    </fieldset>
  );
}
