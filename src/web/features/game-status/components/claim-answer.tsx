import type { GameClaimView, GameStatusView } from '../../../../shared/schemas/game-status';
import { useMessageText } from '../../../i18n/messages';
import { useT, type Translate } from '../../../i18n/use-t';
import { dateFormat } from '../../../lib/format';

/** Why the answer holds no field to show: the game answered without one, did not answer, or was not asked yet. */
function emptyText(t: Translate, message: (text: string) => string, status: GameStatusView): string {
  if (status.online) return t('owner.claim.emptyOnline');
  if (status.error || status.online === false)
    return status.error ? t('owner.claim.noAnswerError', { error: message(status.error) }) : t('owner.claim.noAnswer');
  return t('owner.claim.notAsked');
}

/**
 * "What your server answered" at the last check: the fields where the code counts, word for word,
 * so a typo or a name the game server has not picked up yet is plain to see.
 */
export function ClaimAnswer({ status, claim }: { status: GameStatusView; claim: GameClaimView }) {
  const { t } = useT();
  const message = useMessageText();
  const when = dateFormat({ dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className="flex flex-col gap-2 border-t border-white/10 pt-4" aria-live="polite" data-testid="claim-answer">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-100">{t('owner.claim.answered')}</h3>
        {claim.checkedAt ? (
          <span
            data-testid="claim-found"
            className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${claim.found ? 'bg-emerald-500/15 text-emerald-300' : 'bg-amber-400/15 text-amber-200'}`}
          >
            {claim.found ? t('owner.claim.found') : t('owner.claim.notFound')}
          </span>
        ) : null}
      </div>
      {claim.seen.length > 0 ? (
        <dl className="flex flex-col gap-1.5 text-sm">
          {claim.seen.map((s) => (
            <div key={s.field} className="min-w-0 rounded-lg bg-ink-950/50 px-3 py-2">
              <dt className="text-xs text-slate-400">{s.field}</dt>
              <dd className="font-mono break-words text-slate-100">{s.text}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-slate-300">{emptyText(t, message, status)}</p>
      )}
      {claim.checkedAt ? (
        <p className="text-xs text-slate-400">{t('owner.claim.lastChecked', { when: when.format(new Date(claim.checkedAt)) })}</p>
      ) : null}
    </div>
  );
}
