import { ownerColors } from './owner-colors';
import { Link } from 'react-router';
import { MSG } from '../../../../shared/messages';
import { buttonClass } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { Skeleton } from '../../../components/skeleton';
import { Tag } from '../../../components/tag';
import { useFilterLabels } from '../../../i18n/filter-label';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { useServerOfTheWeekend } from '../api/get-server-of-the-weekend';
import { PlayerCount } from './player-count';
import { BANNER, ServerAvatar } from './server-card';

/** The featured Server of the Weekend, large, in the owner's colours; an invitation when none is booked. */
export function WeekendCard({ waiting = false }: { waiting?: boolean }) {
  const { t } = useT();
  const message = useMessageText();
  const label = useFilterLabels();
  const { data: server, isPending, isError } = useServerOfTheWeekend();
  if (isPending || waiting) return <Skeleton className="h-56 w-full" />;
  if (isError)
    return (
      <p role="alert" className="text-sm text-red-300">
        {message(MSG.loadServersFailed)}
      </p>
    );
  if (!server) {
    return <EmptyState title={t('server.weekend.emptyTitle')}>{t('server.weekend.emptyText')}</EmptyState>;
  }
  return (
    <article
      data-testid="weekend-card"
      className="relative overflow-hidden rounded-2xl border border-amber-300/40 bg-ink-900/80 text-slate-100 shadow-xl shadow-amber-500/10"
      style={ownerColors(server)}
    >
      {server.banner ? (
        <img
          src={server.banner}
          alt=""
          width={BANNER.width}
          height={BANNER.height}
          loading="lazy"
          decoding="async"
          className="h-32 w-full object-cover sm:h-44"
        />
      ) : null}
      <div className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center">
        <ServerAvatar src={server.profilePicture} name={server.name} className="size-20 rounded-2xl" />
        <div className="min-w-0 flex-1">
          <p className="mb-1 inline-flex rounded-full bg-amber-400 px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide text-ink-950">
            {t('server.weekend.badge')}
          </p>
          <h3 className="truncate text-2xl font-bold">{server.name}</h3>
          <p className="line-clamp-2 opacity-80">{server.statusMessage}</p>
          <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
            <span>{t('server.weekend.likes', { count: server.likes })}</span>
            <PlayerCount server={server} />
            {server.filters.slice(0, 3).map((f) => (
              <Tag key={f} tone="inherit">
                {label.filter(f)}
              </Tag>
            ))}
          </div>
        </div>
        <Link to={`/servers/${server.id}`} className={buttonClass('primary', 'shrink-0')}>
          {t('server.weekend.view')}
        </Link>
      </div>
    </article>
  );
}
