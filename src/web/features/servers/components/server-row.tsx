import { Link } from 'react-router';
import type { Server } from '../../../../shared/schemas/server';
import { useFilterLabels } from '../../../i18n/filter-label';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';
import { PlayerCount } from './player-count';
import { ServerAvatar } from './server-card';
import { likedPercent } from './server-stats';

/**
 * A ranked server in a list: position, picture, name, status and the numbers that rank it.
 * `compact` (search results as a list): one short row of position, picture, name, game, likes and
 * players, many to a screen.
 */
export function ServerRow({ server, rank, compact = false }: { server: Server; rank: number; compact?: boolean }) {
  const { t } = useT();
  const label = useFilterLabels();
  const game = server.rank?.game?.name;
  const firstFilter = game ?? server.filters[0];
  const liked = likedPercent(server.likes, server.dislikes);
  return (
    <article
      className={`relative flex items-center rounded-2xl border border-white/10 bg-ink-900/80 transition hover:border-brand-400/50 focus-within:border-brand-400/70 ${
        compact ? 'gap-3 px-3 py-2' : 'gap-3 p-3 sm:gap-4 sm:p-4'
      }`}
    >
      <span
        className={`shrink-0 text-center font-black tabular-nums ${compact ? 'w-9 text-sm' : 'w-8 text-lg'} ${rank <= 3 ? 'text-gradient' : 'text-slate-500'}`}
      >
        {formatNumber(rank)}
      </span>
      <ServerAvatar
        src={server.profilePicture}
        name={server.name}
        className={compact ? 'size-9 rounded-lg' : 'size-12 rounded-xl sm:size-14'}
      />
      <div className="min-w-0 flex-1">
        <h3 className="truncate font-semibold text-white">
          <Link to={`/servers/${server.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {server.name}
          </Link>
        </h3>
        {compact ? (
          <p className="truncate text-xs text-slate-400">
            {firstFilter === undefined ? t('browse.row.noGame') : label.filter(firstFilter)}
          </p>
        ) : (
          <p className="truncate text-sm text-slate-400">{server.statusMessage || t('browse.common.noStatus')}</p>
        )}
        {compact ? null : (
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-300 sm:hidden">
            <span>♥ {formatNumber(server.likes)}</span>
            <span>⚡ {formatNumber(server.totalBoosts)}</span>
            <PlayerCount server={server} />
          </div>
        )}
      </div>
      {compact ? (
        <div className="flex shrink-0 flex-col items-end gap-0.5 text-xs text-slate-300 sm:flex-row sm:items-center sm:gap-4 sm:text-sm">
          <span title={liked === undefined ? t('browse.common.noVotes') : t('browse.row.likedTitle', { liked })}>
            <span aria-hidden="true">♥ </span>
            <span className="tabular-nums">{formatNumber(server.likes)}</span>
            <span className="sr-only">{` ${t('browse.common.likesSr', { count: server.likes })}`}</span>
          </span>
          <PlayerCount server={server} terse />
        </div>
      ) : (
        <dl className="hidden shrink-0 grid-cols-[repeat(3,3.5rem)_auto] gap-4 text-right text-sm sm:grid">
          <Stat label={t('browse.row.likes')} value={server.likes} />
          <Stat label={t('browse.row.boosts')} value={server.totalBoosts} />
          <Stat label={t('browse.row.joins')} value={server.totalJoins} />
          <div>
            <dt className="text-xs text-slate-500">{t('browse.row.players')}</dt>
            <dd className="text-slate-200">
              <PlayerCount server={server} />
            </dd>
          </div>
        </dl>
      )}
    </article>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold tabular-nums text-slate-100">{formatNumber(value)}</dd>
    </div>
  );
}
