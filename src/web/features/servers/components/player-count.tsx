import type { Server } from '../../../../shared/schemas/server';
import { useT } from '../../../i18n/use-t';

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
  const { t } = useT();
  // Never polled (or no game connected): no number at all, only the poller's counts are shown.
  if (server.online === null) {
    return (
      <span className={`inline-flex items-center gap-1.5 opacity-70 ${className}`}>
        <span aria-hidden="true" className="size-2 rounded-full border border-current" />
        {t('browse.players.notConnected')}
      </span>
    );
  }
  if (server.online === false) {
    return (
      <span className={`inline-flex items-center gap-1.5 text-red-300 ${className}`}>
        <span aria-hidden="true" className="size-2 rounded-full bg-red-400" />
        {t('browse.players.offline')}
      </span>
    );
  }
  return (
    <span className={`inline-flex items-center gap-1.5 tabular-nums ${className}`}>
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${server.online ? 'bg-emerald-400 shadow-[0_0_6px] shadow-emerald-400' : 'bg-current opacity-40'}`}
      />
      <span className="sr-only">{`${t('browse.players.onlineSr')} `}</span>
      {server.currentPlayers}
      {server.maxPlayers ? `/${server.maxPlayers}` : ''} <span className="sr-only">{t('browse.players.word')}</span>
      <span aria-hidden="true" className={`opacity-70 ${terse ? 'max-sm:hidden' : ''}`}>
        {t('browse.players.word')}
      </span>
    </span>
  );
}
