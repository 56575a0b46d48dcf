import type { Server } from '../../../../shared/schemas/server';

/** Every counter of a server, in a grid of small tiles. */
export function ServerStats({ server }: { server: Server }) {
  const stats: Array<[string, number | string]> = [
    ['Likes', server.likes],
    ['Dislikes', server.dislikes],
    ['Joins (24h)', server.joins],
    ['Total joins', server.totalJoins],
    ['Boosts (7d)', server.boosts],
    ['Total boosts', server.totalBoosts],
    ['Views', server.views],
    ['Players', server.maxPlayers ? `${server.currentPlayers}/${server.maxPlayers}` : server.currentPlayers],
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="server-stats">
      {stats.map(([label, value]) => (
        <div key={label} className="rounded-xl border border-current/15 bg-current/5 px-3 py-2">
          <dt className="text-xs opacity-70">{label}</dt>
          <dd className="text-lg font-bold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
