import { Link } from 'react-router';
import { ButtonLink } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { Skeleton } from '../../../components/skeleton';
import { useT } from '../../../i18n/use-t';
import { dateFormat, formatNumber } from '../../../lib/format';
import { useFollowedServers } from '../api/follow';
import { PlayerCount } from './player-count';
import { ServerAvatar } from './server-card';

/** `/profile`'s followed servers: each with its live status and its next announced event. */
export function FollowedServers() {
  const { t } = useT();
  const followed = useFollowedServers(true);
  // The next event's day and time, in the page's language.
  const when = dateFormat({ weekday: 'short', hour: '2-digit', minute: '2-digit' });
  return (
    <section aria-labelledby="followed-heading" className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-ink-900/80 p-5">
      <h2 id="followed-heading" className="text-lg font-semibold text-white">
        {t('browse.followed.title')}{' '}
        {followed.data ? <span className="text-sm font-normal text-slate-400">({formatNumber(followed.data.length)})</span> : null}
      </h2>
      {followed.isPending ? (
        <Skeleton className="h-16" />
      ) : followed.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {t('browse.followed.failed')}
        </p>
      ) : followed.data.length === 0 ? (
        <EmptyState
          title={t('browse.followed.emptyTitle')}
          action={
            <ButtonLink to="/search" variant="secondary">
              {t('browse.followed.find')}
            </ButtonLink>
          }
        >
          {t('browse.followed.emptyBody')}
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="followed-servers">
          {followed.data.map((s) => (
            <li key={s.id}>
              <Link
                to={`/servers/${s.id}`}
                className="flex min-h-11 items-center gap-3 rounded-xl border border-white/10 bg-white/5 p-2 pr-3 hover:border-brand-400/50 hover:bg-white/10"
              >
                <ServerAvatar src={s.profilePicture} name={s.name} className="size-10 rounded-lg text-base" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold text-white">{s.name}</span>
                  <span className="block text-xs text-slate-400">
                    {s.nextEvent
                      ? t('browse.followed.next', { title: s.nextEvent.title, when: when.format(new Date(s.nextEvent.startsAt)) })
                      : t('browse.followed.noEvent')}
                  </span>
                </span>
                <PlayerCount server={s} className="text-sm text-slate-200" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
