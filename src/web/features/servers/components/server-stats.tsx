import type { Server } from '../../../../shared/schemas/server';
import { T, useT, type Translate } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';

/** "87 %": the share of likes among likes and dislikes, rounded; undefined before the first vote. */
export function likedPercent(likes: number, dislikes: number): number | undefined {
  const votes = likes + dislikes;
  return votes === 0 ? undefined : Math.round((likes / votes) * 100);
}

/** Players now as the game poller last saw them; never a number for a server it has not reached. */
export function playersNow(t: Translate, server: Pick<Server, 'online' | 'currentPlayers' | 'maxPlayers'>): string {
  if (server.online === null) return t('server.stats.notConnected');
  if (!server.online) return t('server.stats.offline');
  const now = formatNumber(server.currentPlayers);
  return server.maxPlayers ? `${now}/${formatNumber(server.maxPlayers)}` : now;
}

/**
 * Every counter of a server in small tiles, numbers in the reader's locale. Likes and dislikes read
 * as one rating ("87 % liked", with the votes behind it) rather than two bare counts.
 */
export function ServerStats({ server }: { server: Server }) {
  const { t } = useT();
  const percent = likedPercent(server.likes, server.dislikes);
  const votes = server.likes + server.dislikes;
  const stats: Array<[string, string]> = [
    [t('server.stats.joins'), formatNumber(server.joins)],
    [t('server.stats.totalJoins'), formatNumber(server.totalJoins)],
    [t('server.stats.boosts'), formatNumber(server.boosts)],
    [t('server.stats.totalBoosts'), formatNumber(server.totalBoosts)],
    [t('server.stats.views'), formatNumber(server.views)],
    [t('server.stats.players'), playersNow(t, server)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="server-stats">
      <div className="col-span-2 rounded-xl border border-current/15 bg-current/5 px-3 py-2">
        <dt className="text-xs opacity-70">{t('server.stats.rating')}</dt>
        <dd className="flex flex-wrap items-baseline gap-x-2">
          <span className="text-lg font-bold tabular-nums">
            {percent === undefined ? t('server.stats.noVotes') : t('server.stats.liked', { percent })}
          </span>
          <span className="text-xs tabular-nums opacity-80">
            <T
              id={votes ? 'server.stats.votesOf' : 'server.stats.votes'}
              values={{ likes: server.likes, dislikes: server.dislikes, votes }}
              components={{ likes: <span data-testid="likes-count" />, dislikes: <span data-testid="dislikes-count" /> }}
            />
          </span>
        </dd>
        {percent !== undefined ? (
          <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-current/15" aria-hidden="true">
            <div className="h-full rounded-full bg-emerald-400" style={{ width: `${percent}%` }} />
          </div>
        ) : null}
      </div>
      {stats.map(([label, value]) => (
        <div key={label} className="rounded-xl border border-current/15 bg-current/5 px-3 py-2">
          <dt className="text-xs opacity-70">{label}</dt>
          <dd className="text-lg font-bold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
