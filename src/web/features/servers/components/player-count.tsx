import type { Server } from '../../../../shared/schemas/server';

/** Live players: "42/128" with a green dot when the game server answered, grey when it is down. */
export function PlayerCount({
  server,
  className = '',
}: {
  server: Pick<Server, 'currentPlayers' | 'maxPlayers' | 'online'>;
  className?: string;
}) {
  const state = server.online === true ? 'online' : server.online === false ? 'offline' : 'status unknown';
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
      <span aria-hidden="true" className="opacity-70">
        players
      </span>
    </span>
  );
}
