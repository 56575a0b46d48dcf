import type { AdminClaim } from '../../../../shared/schemas/game-status';
import { Button } from '../../../components/button';
import { useT } from '../../../i18n/use-t';
import { ClaimAddress, ClaimDates, ClaimSaid, ClaimServer, ClaimStatus } from './claim-parts';

type OnRevoke = (claim: AdminClaim) => void;

function RevokeButton({ claim, onRevoke }: { claim: AdminClaim; onRevoke: OnRevoke }) {
  const { t } = useT();
  if (claim.status !== 'verified') return null;
  return (
    <Button
      variant="ghost"
      className="px-3 py-1.5 text-red-300 hover:text-red-200"
      aria-label={t('admin.claims.revokeLabel', { server: claim.serverName })}
      onClick={() => onRevoke(claim)}
    >
      {t('admin.claims.revoke')}
    </Button>
  );
}

/** Claims as cards on a phone, as a table from the width where six columns fit. */
export function ClaimsList({ claims, onRevoke }: { claims: AdminClaim[]; onRevoke: OnRevoke }) {
  const { t } = useT();
  return (
    <>
      <ul className="flex flex-col gap-3 lg:hidden" data-testid="admin-claims-cards">
        {claims.map((c) => (
          <li
            key={c.id}
            className="flex flex-col gap-3 rounded-xl border border-white/10 bg-ink-950/40 p-4 text-sm"
            data-testid="admin-claim"
          >
            <div className="flex items-start justify-between gap-3">
              <ClaimServer claim={c} />
              <ClaimStatus claim={c} />
            </div>
            <ClaimAddress claim={c} />
            <ClaimSaid claim={c} />
            <div className="flex items-end justify-between gap-2">
              <ClaimDates claim={c} />
              <RevokeButton claim={c} onRevoke={onRevoke} />
            </div>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-xl border border-white/10 lg:block">
        <table className="w-full table-fixed text-left text-sm" data-testid="admin-claims-table">
          <thead className="bg-white/[0.03] text-xs text-slate-400">
            <tr>
              <th className="w-[19%] px-3 py-2 font-medium">{t('admin.claims.col.server')}</th>
              <th className="w-[22%] px-3 py-2 font-medium">{t('admin.claims.col.address')}</th>
              <th className="w-[11%] px-3 py-2 font-medium">{t('admin.claims.col.status')}</th>
              <th className="px-3 py-2 font-medium">{t('admin.claims.col.said')}</th>
              <th className="w-[15%] px-3 py-2 font-medium">{t('admin.claims.col.dates')}</th>
              <th className="w-28 px-3 py-2 font-medium">
                <span className="sr-only">{t('admin.claims.col.action')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-white/10">
            {claims.map((c) => (
              <tr key={c.id} className="align-top" data-testid="admin-claim">
                <td className="px-3 py-3">
                  <ClaimServer claim={c} />
                </td>
                <td className="px-3 py-3">
                  <ClaimAddress claim={c} />
                </td>
                <td className="px-3 py-3">
                  <ClaimStatus claim={c} />
                </td>
                <td className="px-3 py-3">
                  <ClaimSaid claim={c} />
                </td>
                <td className="px-3 py-3">
                  <ClaimDates claim={c} />
                </td>
                <td className="px-3 py-2 text-right">
                  <RevokeButton claim={c} onRevoke={onRevoke} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
