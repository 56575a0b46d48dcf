import { Link } from 'react-router';
import type { Server } from '../../../../shared/schemas/server';
import { Skeleton } from '../../../components/skeleton';
import { Tag } from '../../../components/tag';
import { useFilterLabels } from '../../../i18n/filter-label';
import { useT } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';
import { localeBadge } from '../locale-badge';
import { PlayerCount } from './player-count';
import { likedPercent } from './server-stats';

const TAGS_SHOWN = 3;
/** The sizes the server's image pipeline produces: the attributes reserve the space before the image arrives. */
export const BANNER = { width: 1200, height: 400 } as const;
export const AVATAR = { width: 256, height: 256 } as const;

/**
 * A server in a list or carousel: banner, picture, name, status, likes, live players, a few filters.
 * Its images load lazily unless `eager` (a card visible on arrival, see docs/decisions/024-first-load.md).
 */
export function ServerCard({
  server,
  className = '',
  eager = false,
  position,
}: {
  server: Server;
  className?: string;
  eager?: boolean;
  /** Its place in the ranking the card is shown in (Top 10); else the card shows its Most Popular rank. */
  position?: number;
}) {
  const { t } = useT();
  const label = useFilterLabels();
  // The game first, as its own badge, then language and region as one short badge: never folded into "+5".
  const game = server.rank?.game?.name;
  const locale = localeBadge(server.filters);
  const localeNames = locale?.names.map(label.filter).join(', ');
  const tags = server.filters.filter((f) => f !== game && !locale?.covered.has(f));
  const more = tags.length - TAGS_SHOWN;
  const liked = likedPercent(server.likes, server.dislikes);
  return (
    <article
      className={`group relative flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-ink-900/90 shadow-lg shadow-black/20 transition hover:border-brand-400/50 focus-within:border-brand-400/70 ${className}`}
    >
      <div className="relative aspect-[3/1] bg-gradient-to-br from-brand-600/40 to-accent-500/30">
        {server.banner ? (
          <img
            src={server.banner}
            alt=""
            width={BANNER.width}
            height={BANNER.height}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            className="size-full object-cover"
          />
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 px-4 pb-4">
        <div className="relative z-10 -mt-7 flex items-end gap-3">
          <ServerAvatar
            src={server.profilePicture}
            name={server.name}
            eager={eager}
            className="size-14 rounded-xl border-2 border-ink-900"
          />
          {position !== undefined ? (
            <span
              className="ml-auto rounded-lg bg-gradient-to-r from-brand-600 to-accent-500 px-2 py-0.5 text-sm font-black tabular-nums text-white"
              data-testid="card-position"
            >
              #{position}
            </span>
          ) : server.rank ? (
            <span
              className="ml-auto rounded-lg border border-white/10 bg-black/40 px-2 py-0.5 text-xs font-bold tabular-nums text-amber-200"
              title={
                server.rank.game
                  ? t('browse.card.rankTitleGame', {
                      position: server.rank.position,
                      of: server.rank.of,
                      gamePosition: server.rank.game.position,
                      game: label.filter(server.rank.game.name),
                    })
                  : t('browse.card.rankTitle', { position: server.rank.position, of: server.rank.of })
              }
              data-testid="card-rank"
            >
              #{server.rank.position}
              <span className="sr-only">{` ${t('browse.card.inMostPopular')}`}</span>
            </span>
          ) : null}
        </div>
        <h3 className="line-clamp-1 font-semibold text-white">
          <Link to={`/servers/${server.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {server.name}
          </Link>
        </h3>
        <p className="line-clamp-2 min-h-10 text-sm text-slate-400">{server.statusMessage || t('browse.common.noStatus')}</p>
        <div className="flex items-center justify-between text-sm text-slate-300">
          <span
            className="inline-flex items-center gap-1"
            title={
              liked === undefined
                ? t('browse.common.noVotes')
                : t('browse.card.likedTitle', { liked, votes: server.likes + server.dislikes })
            }
          >
            <span aria-hidden="true">♥</span>
            <span className="tabular-nums">{formatNumber(server.likes)}</span>
            <span className="sr-only">{t('browse.common.likesSr', { count: server.likes })}</span>
            {liked !== undefined ? (
              <span className="text-xs tabular-nums text-slate-400">{t('browse.card.likedPercent', { liked })}</span>
            ) : null}
          </span>
          <span className="inline-flex items-center gap-1" title={t('browse.card.monthVotesTitle')}>
            <span aria-hidden="true">▲</span>
            <span className="tabular-nums">{formatNumber(server.monthVotes)}</span>
            <span className="sr-only">{t('browse.card.monthVotesSr', { count: server.monthVotes })}</span>
          </span>
          <PlayerCount server={server} />
        </div>
        {server.filters.length > 0 ? (
          <ul className="flex flex-wrap gap-1.5" aria-label={t('browse.card.filters')}>
            {game ? (
              <li>
                <span
                  className="inline-flex items-center rounded-full border border-accent-500/60 bg-accent-500/15 px-2.5 py-0.5 text-xs font-semibold text-white"
                  data-testid="card-game"
                >
                  <span className="sr-only">{`${t('browse.card.gameSr')} `}</span>
                  {label.filter(game)}
                </span>
              </li>
            ) : null}
            {locale ? (
              <li>
                <span
                  className="inline-flex items-center gap-1 rounded-full border border-sky-400/40 bg-sky-400/10 px-2.5 py-0.5 text-xs font-semibold text-sky-100"
                  title={localeNames}
                  data-testid="card-locale"
                >
                  <GlobeIcon />
                  <span aria-hidden="true">{locale.short}</span>
                  <span className="sr-only">{localeNames}</span>
                </span>
              </li>
            ) : null}
            {tags.slice(0, TAGS_SHOWN).map((f) => (
              <li key={f}>
                <Tag>{label.filter(f)}</Tag>
              </li>
            ))}
            {more > 0 ? (
              <li>
                <Tag>+{more}</Tag>
              </li>
            ) : null}
          </ul>
        ) : null}
      </div>
    </article>
  );
}

function GlobeIcon() {
  return (
    <svg viewBox="0 0 16 16" className="size-3.5" aria-hidden="true">
      <circle cx="8" cy="8" r="6.25" stroke="currentColor" strokeWidth="1.5" fill="none" />
      <path d="M1.75 8h12.5M8 1.75c2 2 2 10.5 0 12.5M8 1.75c-2 2-2 10.5 0 12.5" stroke="currentColor" strokeWidth="1.2" fill="none" />
    </svg>
  );
}

/** A server's profile picture (lazily loaded unless `eager`), or its initial on a gradient when it has none. */
export function ServerAvatar({
  src,
  name,
  className = '',
  eager = false,
}: {
  src: string | null;
  name: string;
  className?: string;
  eager?: boolean;
}) {
  if (src) {
    return (
      <img
        src={src}
        alt=""
        width={AVATAR.width}
        height={AVATAR.height}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        className={`shrink-0 bg-ink-800 object-cover ${className}`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`grid shrink-0 place-items-center bg-gradient-to-br from-brand-600 to-accent-500 font-bold text-white ${className}`}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

export function ServerCardSkeleton({ className = '' }: { className?: string }) {
  return (
    <div className={`overflow-hidden rounded-2xl border border-white/10 bg-ink-900/90 ${className}`}>
      <Skeleton className="aspect-[3/1] rounded-none" />
      {/* About as tall as a card's body (name, badges, tags, counts), so cards arriving do not move the page. */}
      <div className="flex min-h-[15.5rem] flex-col gap-2 p-4">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    </div>
  );
}
