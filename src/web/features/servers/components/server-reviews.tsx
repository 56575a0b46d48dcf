import { useState } from 'react';
import type { Review } from '../../../../shared/schemas/server';
import { ThumbIcon } from '../../../components/icons';
import { useT } from '../../../i18n/use-t';
import { dateFormat } from '../../../lib/format';
import { useMoreReviews } from '../api/get-reviews';
import { ReportAction } from './report-dialog';

/** Reviews newest first: the page's first ones, then "Load more" pages through the rest. */
export function ServerReviews({ serverId, first, total }: { serverId: string; first: readonly Review[]; total: number }) {
  const { t } = useT();
  const [more, setMore] = useState(false);
  const rest = useMoreReviews(serverId, more);
  const loaded = [...first, ...(rest.data?.pages.flatMap((p) => p.reviews) ?? [])];
  const knownTotal = rest.data?.pages.at(-1)?.total ?? total;
  const hasMore = more ? rest.hasNextPage : first.length < total;
  // As `toLocaleDateString()` wrote it ("3/13/2026" in English), in the page's language.
  const day = (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : dateFormat().format(date);
  };

  if (loaded.length === 0) return <p className="text-sm opacity-70">{t('server.reviews.empty')}</p>;
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col gap-3" data-testid="reviews">
        {loaded.map((r, i) => (
          <li key={`${r.username}-${r.createdAt}-${i}`} className="flex gap-3 rounded-xl border border-current/15 bg-current/5 p-3">
            {r.profilePicture ? (
              <img
                src={r.profilePicture}
                alt=""
                width={256}
                height={256}
                loading="lazy"
                decoding="async"
                className="size-10 shrink-0 rounded-full object-cover"
              />
            ) : (
              <span aria-hidden="true" className="grid size-10 shrink-0 place-items-center rounded-full bg-current/15 font-bold">
                {(r.displayName || r.username).charAt(0).toUpperCase()}
              </span>
            )}
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-x-2 text-sm">
                <span className="font-semibold">{r.displayName || r.username}</span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${r.type === 'like' ? 'bg-emerald-500/20' : 'bg-red-500/20'}`}
                >
                  <ThumbIcon down={r.type === 'dislike'} className="mr-1 inline size-3" />
                  {r.type === 'like' ? t('server.reviews.liked') : t('server.reviews.disliked')}
                </span>
                {r.joined ? (
                  <span
                    className="rounded-full bg-sky-500/20 px-2 py-0.5 text-xs font-semibold"
                    title={t('server.reviews.joinedTitle')}
                    data-testid="joined-badge"
                  >
                    {t('server.reviews.joined')}
                  </span>
                ) : null}
                <time dateTime={r.createdAt} className="text-xs opacity-60">
                  {r.editedAt ? t('server.reviews.dateEdited', { date: day(r.createdAt) }) : day(r.createdAt)}
                </time>
                <ReportAction serverId={serverId} reviewUsername={r.username} className="ml-auto" />
              </p>
              {r.review ? <p className="mt-1 whitespace-pre-line break-words">{r.review}</p> : null}
            </div>
          </li>
        ))}
      </ul>
      {rest.isError ? (
        <p role="alert" className="text-sm text-red-400">
          {t('server.reviews.loadFailed')}
        </p>
      ) : null}
      {hasMore ? (
        <button
          type="button"
          disabled={rest.isFetching}
          onClick={() => (more ? void rest.fetchNextPage() : setMore(true))}
          className="self-center rounded-xl border border-current/25 px-4 py-2 text-sm font-semibold hover:bg-current/10 disabled:opacity-50"
        >
          {rest.isFetching ? t('server.reviews.loading') : t('server.reviews.loadMore', { loaded: loaded.length, total: knownTotal })}
        </button>
      ) : null}
    </div>
  );
}
