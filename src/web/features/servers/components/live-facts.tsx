import type { ServerDetail } from '../../../../shared/schemas/server';
import type { Locale } from '../../../../shared/i18n/locales';
import { useT } from '../../../i18n/use-t';
import { useNow } from '../../../lib/use-now';

/** One relative-time formatter per language, made on first use (each loads locale data). */
const relativeFormats = new Map<Locale, Intl.RelativeTimeFormat>();

function relativeFormat(locale: Locale): Intl.RelativeTimeFormat {
  let made = relativeFormats.get(locale);
  if (!made) relativeFormats.set(locale, (made = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })));
  return made;
}

/** "2 minutes ago", from an ISO time, in the page's language (the same on the server and in the browser). */
export function agoText(locale: Locale, iso: string, now = Date.now()): string {
  const relative = relativeFormat(locale);
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (seconds > -60) return relative.format(0, 'minute');
  if (seconds > -3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (seconds > -86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86_400), 'day');
}

/**
 * What the game itself said at its last poll: map, version, who is online (when the game lists
 * them and the owner shows them) and when it was checked. "Not connected" before any poll.
 */
export function LiveFacts({ server }: { server: Pick<ServerDetail, 'live' | 'online' | 'currentPlayers' | 'maxPlayers'> }) {
  // The clock, read each minute so "checked 2 minutes ago" stays true (a newer check reads as "now").
  const { t, locale } = useT();
  const [now] = useNow(60_000);
  const live = server.live;
  if (!live) {
    return (
      <p className="text-sm opacity-80" data-testid="live-facts">
        {t('server.live.notConnected')}
      </p>
    );
  }
  const facts: Array<[string, string]> = [];
  if (server.online !== null) facts.push([t('server.live.status'), server.online ? t('server.live.online') : t('server.live.offline')]);
  if (live.map) facts.push([t('server.live.map'), live.map]);
  if (live.version) facts.push([t('server.live.version'), live.version]);
  facts.push([t('server.live.lastChecked'), agoText(locale, live.checkedAt, now)]);
  return (
    <div className="flex flex-col gap-3" data-testid="live-facts">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {facts.map(([label, value]) => (
          <div key={label} className="flex min-w-0 flex-col-reverse rounded-xl border border-current/15 bg-black/10 px-3 py-2">
            <dt className="text-xs opacity-70">{label}</dt>
            <dd className="truncate font-semibold" title={value}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {live.players && live.players.length > 0 ? (
        <details className="rounded-xl border border-current/15 bg-black/10 px-3 py-2">
          <summary className="min-h-11 cursor-pointer content-center font-semibold">
            {t('server.live.onlineNow', { count: live.players.length })}
          </summary>
          <ul className="mt-2 flex flex-wrap gap-1.5 text-sm" aria-label={t('server.live.playersOnline')}>
            {live.players.map((name, i) => (
              <li key={`${name}-${i}`} className="rounded-lg bg-black/20 px-2 py-0.5">
                {name}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
