import type { ReactNode } from 'react';
import { claimInstructions } from '../../../../shared/claims';
import type { GameClaimView, GameStatusView } from '../../../../shared/schemas/game-status';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { FormMessage } from '../../../components/form-message';
import type { MessageId } from '../../../i18n/catalogs/index';
import { T, useT, type Translate } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useCheckGameStatus } from '../api/check-game-status';
import { ClaimAnswer } from './claim-answer';

/** The claim instructions of src/shared/claims.ts by game family, as message ids. */
const CLAIM_TEXTS: Record<'cfx' | 'minecraft' | 'other', { fields: MessageId; how: MessageId }> = {
  cfx: { fields: 'owner.claim.fields.cfx', how: 'owner.claim.how.cfx' },
  minecraft: { fields: 'owner.claim.fields.minecraft', how: 'owner.claim.how.minecraft' },
  other: { fields: 'owner.claim.fields.other', how: 'owner.claim.how.other' },
};

function claimFamily(game: string): keyof typeof CLAIM_TEXTS {
  if (game === 'fivem' || game === 'redm') return 'cfx';
  if (game === 'minecraft' || game === 'minecraft-bedrock') return 'minecraft';
  return 'other';
}

/**
 * Where the code goes and how, in the page's language: the API sends the English of
 * `claimInstructions`; a text it does not match (a newer server) is shown as sent.
 */
function claimTexts(t: Translate, status: GameStatusView, claim: GameClaimView): { fields: string; how: ReactNode } {
  const game = status.game ?? '';
  const english = claimInstructions(game);
  const ids = CLAIM_TEXTS[claimFamily(game)];
  const fields = claim.fields === english.fields ? t(ids.fields) : claim.fields;
  const how =
    claim.how === english.how ? (
      <T
        id={ids.how}
        values={{ code: claim.code ?? 'CODE' }}
        components={{ code: claim.code ? <code className="rounded bg-white/10 px-1 font-mono text-slate-100" /> : <span /> }}
      />
    ) : (
      <HowText how={claim.how} code={claim.code} />
    );
  return { fields, how };
}

/**
 * The proof that the owner runs the game server: while pending, the code, where to put it for
 * this game and what the game answered; once verified, a badge. "Check now" asks the game at once
 * either way, so an owner who just restarted the server need not wait for the poller.
 */
export function ClaimBox({ serverId, status, claim }: { serverId: string; status: GameStatusView; claim: GameClaimView }) {
  const { t } = useT();
  const check = useCheckGameStatus(serverId);
  const pending = claim.status === 'pending';
  const texts = claimTexts(t, status, claim);
  const action = (
    <Button variant={pending ? 'primary' : 'secondary'} className="min-h-11" disabled={check.isPending} onClick={() => check.mutate()}>
      {check.isPending ? t('owner.claim.asking') : t('owner.claim.check')}
    </Button>
  );
  return (
    <div
      data-testid="claim-box"
      data-claim={claim.status}
      className={`flex flex-col gap-4 rounded-xl border p-4 ${pending ? 'border-amber-400/30 bg-amber-400/5' : 'border-emerald-500/30 bg-emerald-500/5'}`}
    >
      {pending ? (
        <PendingClaim claim={claim} fields={texts.fields} how={texts.how} />
      ) : (
        <VerifiedClaim claim={claim} fields={texts.fields} />
      )}
      <div className="flex flex-wrap items-center gap-3">{action}</div>
      {pending ? <ClaimAnswer status={status} claim={claim} /> : null}
      <FormMessage error={check.isError ? errorText(check.error, t('owner.claim.checkFailed')) : null} />
    </div>
  );
}

function PendingClaim({ claim, fields, how }: { claim: GameClaimView; fields: string; how: ReactNode }) {
  const { t } = useT();
  return (
    <>
      <p className="flex items-start gap-2 font-semibold text-amber-200">
        <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-amber-400" />
        {t('owner.claim.waiting')}
      </p>
      <p className="text-sm text-slate-300">{t('owner.claim.prove', { fields })}</p>
      {claim.code ? (
        <div className="flex flex-wrap items-center gap-2">
          <code
            data-testid="claim-code"
            className="min-h-11 content-center rounded-xl border border-white/15 bg-ink-950/70 px-3 py-1.5 font-mono text-xl font-bold tracking-wider text-white select-all sm:px-4 sm:text-2xl"
          >
            {claim.code}
          </code>
          <CopyButton text={claim.code} />
        </div>
      ) : null}
      <p className="text-sm text-slate-300">
        <span className="font-semibold text-slate-100">{t('owner.claim.howLabel')} </span>
        {how}
      </p>
    </>
  );
}

/** The game's instructions as the API sent them, with the code itself where they say CODE, set off so it reads as the thing to type. */
function HowText({ how, code }: { how: string; code: string | null }) {
  if (!code) return how;
  return how.split('CODE').map((part, i) => (
    <span key={i}>
      {i > 0 ? <code className="rounded bg-white/10 px-1 font-mono text-slate-100">{code}</code> : null}
      {part}
    </span>
  ));
}

function VerifiedClaim({ claim, fields }: { claim: GameClaimView; fields: string }) {
  const { t } = useT();
  return (
    <>
      <p className="flex flex-wrap items-center gap-2">
        <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-500/15 px-3 py-1 text-sm font-bold text-emerald-300">
          <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
            <path d="M4 10.5l4 4 8-9" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          {t('owner.claim.verified')}
        </span>
        {claim.verifiedAt ? (
          <span className="text-sm text-slate-300">{t('owner.claim.since', { date: formatDate(claim.verifiedAt) })}</span>
        ) : null}
      </p>
      {claim.code ? (
        <p className="text-sm text-slate-300">{t('owner.claim.verifiedText', { fields })}</p>
      ) : (
        // Connected before addresses needed a code: it was kept as verified, with nothing to take out.
        <p className="text-sm text-slate-300">{t('owner.claim.legacy')}</p>
      )}
    </>
  );
}
