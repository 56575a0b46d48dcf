import type { Server } from '../../../../shared/schemas/server';

/** "87 %": the share of likes among likes and dislikes, rounded; undefined before the first vote. */
export function likedPercent(likes: number, dislikes: number): number | undefined {
  const votes = likes + dislikes;
  return votes === 0 ? undefined : Math.round((likes / votes) * 100);
}

/** Players now as the game poller last saw them; never a number for a server it has not reached. */
export function playersNow(server: Pick<Server, 'online' | 'currentPlayers' | 'maxPlayers'>): string {
  if (server.online === null) return 'Not connected';
  if (!server.online) return 'Offline';
  const now = server.currentPlayers.toLocaleString();
  return server.maxPlayers ? `${now}/${server.maxPlayers.toLocaleString()}` : now;
}

/**
 * Every counter of a server in small tiles, numbers in the reader's locale. Likes and dislikes read
 * as one rating ("87 % liked", with the votes behind it) rather than two bare counts.
 */
export function ServerStats({ server }: { server: Server }) {
  const percent = likedPercent(server.likes, server.dislikes);
  const votes = server.likes + server.dislikes;
  const stats: Array<[string, string]> = [
    ['Joins (24h)', server.joins.toLocaleString()],
    ['Total joins', server.totalJoins.toLocaleString()],
    ['Boosts (7d)', server.boosts.toLocaleString()],
    ['Total boosts', server.totalBoosts.toLocaleString()],
    ['Views', server.views.toLocaleString()],
    ['Players', playersNow(server)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="server-stats">
      <div className="col-span-2 rounded-xl border border-current/15 bg-current/5 px-3 py-2">
        <dt className="text-xs opacity-70">Rating</dt>
        <dd className="flex flex-wrap items-baseline gap-x-2">
          <span className="text-lg font-bold tabular-nums">{percent === undefined ? 'No votes yet' : `${percent} % liked`}</span>
          <span className="text-xs tabular-nums opacity-80">
            (<span data-testid="likes-count">{server.likes.toLocaleString()}</span> {server.likes === 1 ? 'like' : 'likes'},{' '}
            <span data-testid="dislikes-count">{server.dislikes.toLocaleString()}</span> {server.dislikes === 1 ? 'dislike' : 'dislikes'}
            {votes ? ` of ${votes.toLocaleString()} ${votes === 1 ? 'vote' : 'votes'}` : ''})
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
