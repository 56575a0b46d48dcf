import type { Server } from '../../../../shared/schemas/server';

/** Live players: "42/128" with a green dot when the game answered its last poll, "Offline", or "Not connected". */
export function PlayerCount({
  server,
  className = '',
  terse = false,
}: {
  server: Pick<Server, 'currentPlayers' | 'maxPlayers' | 'online'>;
  className?: string;
  /** In a compact row on a phone: "42/128" without the word. */
  terse?: boolean;
}) {
  const state = server.online === true ? 'online' : 'offline';
  // Never polled (or no game connected): no number at all, only the poller's counts are shown.
  if (server.online === null) {
    return (
      <span className={`inline-flex items-center gap-1.5 opacity-70 ${className}`}>
        <span aria-hidden="true" className="size-2 rounded-full border border-current" />
        Not connected
      </span>
    );
  }
  if (server.online === false) {
    return (
      <span className={`inline-flex items-center gap-1.5 text-red-300 ${className}`}>
        <span aria-hidden="true" className="size-2 rounded-full bg-red-400" />
        Offline
      </span>
    );
  }
  return (
    <span className={`inline-flex items-center gap-1.5 tabular-nums ${className}`}>
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${server.online ? 'bg-emerald-400 shadow-[0_0_6px] shadow-emerald-400' : 'bg-current opacity-40'}`}
      />
      <span className="sr-only">{state}, </span>
      {server.currentPlayers}
      {server.maxPlayers ? `/${server.maxPlayers}` : ''} <span className="sr-only">players</span>
      <span aria-hidden="true" className={`opacity-70 ${terse ? 'max-sm:hidden' : ''}`}>
        players
      </span>
    </span>
  );
}
