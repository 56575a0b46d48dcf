import { useState } from 'react';
import type { Review } from '../../../../shared/schemas/server';
import { ThumbIcon } from '../../../components/icons';
import { useMoreReviews } from '../api/get-reviews';
import { ReportAction } from './report-dialog';

/** Reviews newest first: the page's first ones, then "Load more" pages through the rest. */
export function ServerReviews({ serverId, first, total }: { serverId: string; first: readonly Review[]; total: number }) {
  const [more, setMore] = useState(false);
  const rest = useMoreReviews(serverId, more);
  const loaded = [...first, ...(rest.data?.pages.flatMap((p) => p.reviews) ?? [])];
  const knownTotal = rest.data?.pages.at(-1)?.total ?? total;
  const hasMore = more ? rest.hasNextPage : first.length < total;

  if (loaded.length === 0) return <p className="text-sm opacity-70">No reviews yet. Be the first to leave one with your vote.</p>;
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
                  {r.type === 'like' ? 'Liked' : 'Disliked'}
                </span>
                {r.joined ? (
                  <span
                    className="rounded-full bg-sky-500/20 px-2 py-0.5 text-xs font-semibold"
                    title="This player joined the server"
                    data-testid="joined-badge"
                  >
                    ✓ Joined
                  </span>
                ) : null}
                <time dateTime={r.createdAt} className="text-xs opacity-60">
                  {new Date(r.createdAt).toLocaleDateString()}
                  {r.editedAt ? ' · edited' : ''}
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
          Failed to load more reviews.
        </p>
      ) : null}
      {hasMore ? (
        <button
          type="button"
          disabled={rest.isFetching}
          onClick={() => (more ? void rest.fetchNextPage() : setMore(true))}
          className="self-center rounded-xl border border-current/25 px-4 py-2 text-sm font-semibold hover:bg-current/10 disabled:opacity-50"
        >
          {rest.isFetching ? 'Loading…' : `Load more (${loaded.length} of ${knownTotal})`}
        </button>
      ) : null}
    </div>
  );
}
