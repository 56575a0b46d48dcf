import { useState } from 'react';
import type { AdminClaim, ClaimFilter } from '../../../../shared/schemas/game-status';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import { errorText } from '../../../lib/api-client';
import { CLAIMS_PAGE_SIZE, useGameClaimCounts, useGameClaims } from '../api/get-game-claims';
import { useRevokeGameClaim } from '../api/revoke-game-claim';
import { ClaimsList } from './claims-list';
import { CLAIM_LABELS, ClaimTabs } from './claim-tabs';
import { LoadState } from './load-state';

const EMPTY: Record<ClaimFilter, string> = {
  all: 'Claims start when an owner connects a game address.',
  pending: 'Every address connected has proved itself.',
  verified: 'No game server has reported its code yet.',
  ended: 'Changed, disconnected, revoked and taken-over claims are kept here.',
  flagged: 'Counts that were not plausible (more players than listed or allowed) show up here.',
};

/**
 * Game address claims: which listing claims which address, whether the game proved it, what the
 * game said, and counts that were not believed; a verification can be revoked (asked first: the
 * listing loses its live numbers and must prove the address again).
 */
export function ClaimsPanel() {
  const [status, setStatus] = useState<ClaimFilter>('all');
  const [page, setPage] = useState(1);
  const { data, isPending, isError, isPlaceholderData } = useGameClaims({ status, page });
  const counts = useGameClaimCounts();
  const revoke = useRevokeGameClaim();
  const [target, setTarget] = useState<AdminClaim | null>(null);
  const pages = data ? Math.max(1, Math.ceil(data.total / CLAIMS_PAGE_SIZE)) : 1;
  const close = () => {
    setTarget(null);
    revoke.reset();
  };

  return (
    <Panel
      id="claims-heading"
      title="Game address claims"
      description="An address shows live numbers only once its game server reports the listing’s code."
    >
      <div data-testid="admin-claims" className="flex flex-col gap-4">
        <ClaimTabs
          value={status}
          counts={counts.data}
          onChange={(next) => {
            setStatus(next);
            setPage(1);
          }}
        />
        {!data ? (
          <LoadState pending={isPending} error={isError} label="claims" />
        ) : data.claims.length === 0 ? (
          <EmptyState title={status === 'all' ? 'No claims yet' : `No ${CLAIM_LABELS[status].toLowerCase()} claims`}>
            {EMPTY[status]}
          </EmptyState>
        ) : (
          <div className={`flex flex-col gap-4 transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`}>
            <ClaimsList claims={data.claims} onRevoke={setTarget} />
            <Pagination label="Claim pages" page={page} pages={pages} onPage={setPage} compact />
          </div>
        )}
      </div>
      <ConfirmDialog
        open={target !== null}
        title="Revoke this verification?"
        confirmLabel="Revoke"
        pending={revoke.isPending}
        error={revoke.isError ? errorText(revoke.error, 'Failed to revoke the verification.') : null}
        onClose={close}
        onConfirm={() => target && revoke.mutate(target.id, { onSuccess: close })}
      >
        <strong className="text-white">{target?.serverName}</strong> loses{' '}
        <span className="font-mono">
          {target?.host}:{target?.port}
        </span>
        , its live numbers and the history taken from it, and gets a new code to prove the address again. Its owner is told.
      </ConfirmDialog>
    </Panel>
  );
}
