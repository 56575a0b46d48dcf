import { Link } from 'react-router';
import type { Server } from '../../../../shared/schemas/server';
import { PlayerCount } from './player-count';
import { ServerAvatar } from './server-card';

/** A ranked server in a list: position, picture, name, status and the numbers that rank it. */
export function ServerRow({ server, rank }: { server: Server; rank: number }) {
  return (
    <article className="relative flex items-center gap-3 rounded-2xl border border-white/10 bg-ink-900/80 p-3 transition hover:border-brand-400/50 focus-within:border-brand-400/70 sm:gap-4 sm:p-4">
      <span className={`w-8 shrink-0 text-center text-lg font-black tabular-nums ${rank <= 3 ? 'text-gradient' : 'text-slate-500'}`}>
        {rank}
      </span>
      <ServerAvatar src={server.profilePicture} name={server.name} className="size-12 rounded-xl sm:size-14" />
      <div className="min-w-0 flex-1">
        <h3 className="truncate font-semibold text-white">
          <Link to={`/servers/${server.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {server.name}
          </Link>
        </h3>
        <p className="truncate text-sm text-slate-400">{server.statusMessage || 'No status yet.'}</p>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-300 sm:hidden">
          <span>♥ {server.likes}</span>
          <span>⚡ {server.totalBoosts}</span>
          <PlayerCount server={server} />
        </div>
      </div>
      <dl className="hidden shrink-0 grid-cols-[repeat(3,3.5rem)_auto] gap-4 text-right text-sm sm:grid">
        <Stat label="Likes" value={server.likes} />
        <Stat label="Boosts" value={server.totalBoosts} />
        <Stat label="Joins" value={server.totalJoins} />
        <div>
          <dt className="text-xs text-slate-500">Players</dt>
          <dd className="text-slate-200">
            <PlayerCount server={server} />
          </dd>
        </div>
      </dl>
    </article>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold tabular-nums text-slate-100">{value}</dd>
    </div>
  );
}
