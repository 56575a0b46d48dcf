import type { GameClaimView, GameStatusView } from '../../../../shared/schemas/game-status';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { FormMessage } from '../../../components/form-message';
import { errorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useCheckGameStatus } from '../api/check-game-status';
import { ClaimAnswer } from './claim-answer';

/**
 * The proof that the owner runs the game server: while pending, the code, where to put it for
 * this game and what the game answered; once verified, a badge. "Check now" asks the game at once
 * either way, so an owner who just restarted the server need not wait for the poller.
 */
export function ClaimBox({ serverId, status, claim }: { serverId: string; status: GameStatusView; claim: GameClaimView }) {
  const check = useCheckGameStatus(serverId);
  const pending = claim.status === 'pending';
  const action = (
    <Button variant={pending ? 'primary' : 'secondary'} className="min-h-11" disabled={check.isPending} onClick={() => check.mutate()}>
      {check.isPending ? 'Asking the server…' : 'Check now'}
    </Button>
  );
  return (
    <div
      data-testid="claim-box"
      data-claim={claim.status}
      className={`flex flex-col gap-4 rounded-xl border p-4 ${pending ? 'border-amber-400/30 bg-amber-400/5' : 'border-emerald-500/30 bg-emerald-500/5'}`}
    >
      {pending ? <PendingClaim claim={claim} /> : <VerifiedClaim claim={claim} />}
      <div className="flex flex-wrap items-center gap-3">{action}</div>
      {pending ? <ClaimAnswer status={status} claim={claim} /> : null}
      <FormMessage error={check.isError ? errorText(check.error, 'Failed to ask the server.') : null} />
    </div>
  );
}

function PendingClaim({ claim }: { claim: GameClaimView }) {
  return (
    <>
      <p className="flex items-start gap-2 font-semibold text-amber-200">
        <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-amber-400" />
        Waiting for verification: nothing from this address shows publicly yet.
      </p>
      <p className="text-sm text-slate-300">
        Prove that you run this game server: put this code in {claim.fields}, then press Check now. Only whoever runs the server can change
        it, so nobody can list your address under their name.
      </p>
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
        <span className="font-semibold text-slate-100">How: </span>
        <HowText how={claim.how} code={claim.code} />
      </p>
    </>
  );
}

/** The game's instructions with the code itself where they say CODE, set off so it reads as the thing to type. */
function HowText({ how, code }: { how: string; code: string | null }) {
  if (!code) return how;
  return how.split('CODE').map((part, i) => (
    <span key={i}>
      {i > 0 ? <code className="rounded bg-white/10 px-1 font-mono text-slate-100">{code}</code> : null}
      {part}
    </span>
  ));
}

function VerifiedClaim({ claim }: { claim: GameClaimView }) {
  return (
    <>
      <p className="flex flex-wrap items-center gap-2">
        <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-500/15 px-3 py-1 text-sm font-bold text-emerald-300">
          <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
            <path d="M4 10.5l4 4 8-9" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          Verified
        </span>
        {claim.verifiedAt ? <span className="text-sm text-slate-300">since {formatDate(claim.verifiedAt)}</span> : null}
      </p>
      {claim.code ? (
        <p className="text-sm text-slate-300">
          Your game server reported its code, so its player count and status now show publicly. You may take the code out of {claim.fields}{' '}
          again: the address stays verified until you change it.
        </p>
      ) : (
        // Connected before addresses needed a code: it was kept as verified, with nothing to take out.
        <p className="text-sm text-slate-300">This address was connected before codes were needed, so it counts as verified.</p>
      )}
    </>
  );
}
