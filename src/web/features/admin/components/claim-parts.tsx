import { Link } from 'react-router';
import { gameById } from '../../../../shared/games';
import type { AdminClaim } from '../../../../shared/schemas/game-status';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT } from '../../../i18n/use-t';
import { dateFormat } from '../../../lib/format';

const when = () => dateFormat({ dateStyle: 'short', timeStyle: 'short' });

const ENDED: Record<NonNullable<AdminClaim['endedReason']>, MessageId> = {
  changed: 'admin.claims.ended.changed',
  removed: 'admin.claims.ended.removed',
  revoked: 'admin.claims.ended.revoked',
  superseded: 'admin.claims.ended.superseded',
};

const STATUS: Record<AdminClaim['status'], MessageId> = {
  pending: 'admin.claims.status.pending',
  verified: 'admin.claims.status.verified',
  ended: 'admin.claims.status.ended',
};

const PENDING_BADGE = 'bg-amber-400/15 text-amber-200';
const VERIFIED_BADGE = 'bg-emerald-500/15 text-emerald-300';
const ENDED_BADGE = 'bg-white/10 text-slate-300';
const BADGE: Record<AdminClaim['status'], string> = { pending: PENDING_BADGE, verified: VERIFIED_BADGE, ended: ENDED_BADGE };

/** Pending, Verified or Ended, with why it ended. */
export function ClaimStatus({ claim: c }: { claim: AdminClaim }) {
  const { t } = useT();
  return (
    <span className="flex flex-col items-start gap-1">
      <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ${BADGE[c.status]}`} data-testid="claim-status">
        {t(STATUS[c.status])}
      </span>
      {c.endedReason ? <span className="text-xs text-slate-400">{t(ENDED[c.endedReason])}</span> : null}
    </span>
  );
}

/** The listing (to its page) and its owner. */
export function ClaimServer({ claim: c }: { claim: AdminClaim }) {
  const { t } = useT();
  return (
    <span className="flex min-w-0 flex-col">
      <Link to={`/servers/${c.serverId}`} className="font-semibold break-words text-white hover:underline">
        {c.serverName}
      </Link>
      <span className="text-xs break-words text-slate-400">{t('admin.claims.by', { owner: c.ownerUsername })}</span>
    </span>
  );
}

/** The game and the address as typed, with the IP it resolved to when that differs, and the claim's code. */
export function ClaimAddress({ claim: c }: { claim: AdminClaim }) {
  return (
    <span className="flex min-w-0 flex-col gap-0.5">
      <span className="text-slate-200">{gameById(c.game)?.label ?? c.game}</span>
      <span className="font-mono text-xs break-words text-slate-300">
        {c.host}
        <span className="whitespace-nowrap">:{c.port}</span>
        {c.ip && c.ip !== c.host ? <span className="text-slate-500"> ({c.ip})</span> : null}
      </span>
      <span className="font-mono text-xs text-slate-500">{c.code}</span>
    </span>
  );
}

/**
 * What the game reported in the fields where the code counts, and why a count was not believed.
 * The field names (MOTD, sv_projectDesc) are the games' own, and the flag is the server's note: both shown as they are.
 */
export function ClaimSaid({ claim: c }: { claim: AdminClaim }) {
  const { t } = useT();
  return (
    <div className="flex min-w-0 flex-col gap-1 text-xs">
      {c.seen.length === 0 ? (
        <span className="text-slate-500">{c.checkedAt ? t('admin.claims.said.nothing') : t('admin.claims.said.unchecked')}</span>
      ) : null}
      {c.seen.map((s) => (
        <p key={s.field} className="break-words">
          <span className="text-slate-400">{s.field}: </span>
          <span className="font-mono text-slate-200">{s.text}</span>
        </p>
      ))}
      {c.flag ? (
        <p className="rounded-lg bg-amber-400/10 px-2 py-1 break-words text-amber-200" data-testid="claim-flag">
          <span aria-hidden="true">⚑ </span>
          {c.flag}
          {c.flaggedAt ? <span className="text-amber-200/70"> · {when().format(new Date(c.flaggedAt))}</span> : null}
        </p>
      ) : null}
    </div>
  );
}

/** Claimed, verified, ended and last checked, those that happened. */
export function ClaimDates({ claim: c }: { claim: AdminClaim }) {
  const { t } = useT();
  const dates: Array<[MessageId, string | null]> = [
    ['admin.claims.dates.claimed', c.createdAt],
    ['admin.claims.dates.verified', c.verifiedAt],
    ['admin.claims.dates.ended', c.endedAt],
    ['admin.claims.dates.checked', c.checkedAt],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      {dates.map(([label, at]) =>
        at ? (
          <div key={label} className="contents">
            <dt className="text-slate-500">{t(label)}</dt>
            <dd className="whitespace-nowrap text-slate-300 tabular-nums">{when().format(new Date(at))}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
