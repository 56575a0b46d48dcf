import { useState } from 'react';
import type { AdminClaim, ClaimFilter } from '../../../../shared/schemas/game-status';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import type { MessageId } from '../../../i18n/catalogs/index';
import { T, useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { CLAIMS_PAGE_SIZE, useGameClaimCounts, useGameClaims } from '../api/get-game-claims';
import { useRevokeGameClaim } from '../api/revoke-game-claim';
import { ClaimsList } from './claims-list';
import { ClaimTabs } from './claim-tabs';
import { LoadState } from './load-state';

const EMPTY: Record<ClaimFilter, { title: MessageId; text: MessageId }> = {
  all: { title: 'admin.claims.empty.all.title', text: 'admin.claims.empty.all.text' },
  pending: { title: 'admin.claims.empty.pending.title', text: 'admin.claims.empty.pending.text' },
  verified: { title: 'admin.claims.empty.verified.title', text: 'admin.claims.empty.verified.text' },
  ended: { title: 'admin.claims.empty.ended.title', text: 'admin.claims.empty.ended.text' },
  flagged: { title: 'admin.claims.empty.flagged.title', text: 'admin.claims.empty.flagged.text' },
};

/**
 * Game address claims: which listing claims which address, whether the game proved it, what the
 * game said, and counts that were not believed; a verification can be revoked (asked first: the
 * listing loses its live numbers and must prove the address again).
 */
export function ClaimsPanel() {
  const { t } = useT();
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
    <Panel id="claims-heading" title={t('admin.claims.title')} description={t('admin.claims.description')}>
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
          <LoadState pending={isPending} error={isError} failed="admin.load.claims" />
        ) : data.claims.length === 0 ? (
          <EmptyState title={t(EMPTY[status].title)}>{t(EMPTY[status].text)}</EmptyState>
        ) : (
          <div className={`flex flex-col gap-4 transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`}>
            <ClaimsList claims={data.claims} onRevoke={setTarget} />
            <Pagination label={t('admin.claims.pages')} page={page} pages={pages} onPage={setPage} compact />
          </div>
        )}
      </div>
      <ConfirmDialog
        open={target !== null}
        title={t('admin.claims.confirm.title')}
        confirmLabel={t('admin.claims.revoke')}
        pending={revoke.isPending}
        error={revoke.isError ? errorText(revoke.error, t('admin.claims.confirm.failed')) : null}
        onClose={close}
        onConfirm={() => target && revoke.mutate(target.id, { onSuccess: close })}
      >
        <T
          id="admin.claims.confirm.text"
          components={{
            server: <strong className="text-white">{target?.serverName}</strong>,
            address: (
              <span className="font-mono">
                {target?.host}:{target?.port}
              </span>
            ),
          }}
        />
      </ConfirmDialog>
    </Panel>
  );
}
