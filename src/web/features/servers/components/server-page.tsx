import { ownerColors } from './owner-colors';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '../../../../shared/messages';
import type { Server, ServerDetail } from '../../../../shared/schemas/server';
import { ButtonLink } from '../../../components/button';
import { CheckoutReturnBanner } from '../../../components/checkout-return-banner';
import { EmptyState } from '../../../components/empty-state';
import { Skeleton } from '../../../components/skeleton';
import { Tag } from '../../../components/tag';
import { useFilterLabels } from '../../../i18n/filter-label';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useServer } from '../api/get-server';
import { serverKeys } from '../api/keys';
import { ReportAction } from './report-dialog';
import { ServerActions } from './server-actions';
import { BoostCard } from './boost-card';
import { ServerGallery } from './server-gallery';
import { ServerHero } from './server-hero';
import { ServerReviews } from './server-reviews';
import { ServerStats } from './server-stats';
import { ServerConnect } from './server-connect';
import { ServerFacts } from './server-facts';
import { DailyVoteCard } from './daily-vote-card';
import { LiveFacts } from './live-facts';
import { ServerRank } from './server-rank';
import { FollowButton } from './follow-button';
import { PlayerHistory, usePlayerHistory } from '../../game-status';
import { useFilterCategories } from '../api/get-filter-categories';

/** `/servers/:id`: the public server page, drawn in the owner's colours. */
export function ServerPage() {
  const { t } = useT();
  const message = useMessageText();
  const label = useFilterLabels();
  const { id = '' } = useParams();
  const session = useSession();
  const queryClient = useQueryClient();
  const { data: server, isPending, error } = useServer(id);
  // Asked for alongside the server rather than after it: the facts row under the header needs both,
  // and drawing it whole the first time keeps the page from shifting down when they land.
  const dayHistory = usePlayerHistory(id, '24h');
  const categories = useFilterCategories();

  // Only their first answer is waited for: one that failed shows the page without those facts.
  const factsComing = (q: { isPending: boolean; failureCount: number }) => q.isPending && q.failureCount === 0;
  if (isPending || (server && (factsComing(dayHistory) || factsComing(categories)))) return <ServerPageSkeleton />;
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-16">
        <EmptyState title={t('server.page.notFoundTitle')} action={<ButtonLink to="/search">{t('server.page.notFoundSearch')}</ButtonLink>}>
          {t('server.page.notFoundText')}
        </EmptyState>
      </div>
    );
  }
  if (error || !server) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-16">
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-4 text-red-200">
          {message(MSG.loadServerFailed)}
        </p>
      </div>
    );
  }

  // The answer carries the new counters; reviews and viewer come with the refetch.
  const onDone = (updated: Server) => {
    const key = [...serverKeys.detail(id), session?.user.id ?? ''];
    queryClient.setQueryData<ServerDetail>(key, (old) => (old ? { ...old, ...updated } : old));
    void queryClient.invalidateQueries({ queryKey: serverKeys.detail(id) });
  };

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-6 sm:py-8">
      <ServerHero server={server} />
      <div className="-mt-3 flex flex-wrap items-center justify-between gap-3 px-1">
        <ServerRank rank={server.rank} className="text-slate-200" />
        <FollowButton
          key={`follow-${server.id}-${session?.user.id ?? ''}`}
          serverId={server.id}
          isOwner={server.viewer?.isOwner === true}
        />
      </div>
      <ServerFacts server={server} />
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        {/* First in the DOM so phones see the buttons before the long content; second column on desktop. */}
        <aside className="flex min-w-0 flex-col gap-4 lg:sticky lg:top-20 lg:order-2 lg:self-start">
          <CheckoutReturnBanner successText={t('server.page.boostThanks')} />
          <ServerConnect server={server} />
          <ServerActions key={`${server.id}-${session?.user.id ?? ''}`} server={server} viewer={server.viewer} onDone={onDone} />
          <DailyVoteCard key={`vote-${server.id}-${session?.user.id ?? ''}`} server={server} />
          <BoostCard server={server} viewer={server.viewer} />
          {session?.user.role === 'player' ? (
            <p className="flex items-center justify-end gap-2 px-1 text-xs text-slate-400">
              {t('server.page.reportPrompt')}
              <ReportAction serverId={server.id} className="text-slate-200" />
            </p>
          ) : null}
        </aside>
        <div
          className="flex min-w-0 flex-col gap-6 rounded-2xl border border-white/10 bg-ink-900/80 p-4 text-slate-100 sm:p-6"
          style={ownerColors(server)}
        >
          <Block title={t('server.page.about')}>
            <p className="whitespace-pre-line break-words leading-relaxed">{server.bio || t('server.page.noBio')}</p>
            {server.filters.length > 0 ? (
              <ul className="mt-4 flex flex-wrap gap-1.5" aria-label={t('server.page.filters')}>
                {server.filters.map((f) => (
                  <li key={f}>
                    <Tag tone="inherit">{label.filter(f)}</Tag>
                  </li>
                ))}
              </ul>
            ) : null}
          </Block>
          <Block title={t('server.page.live')}>
            <LiveFacts server={server} />
          </Block>
          <Block title={t('server.page.stats')}>
            <ServerStats server={server} />
          </Block>
          <PlayerHistory serverId={server.id} />
          <Block title={t('server.page.gallery')}>
            <ServerGallery images={server.galleryImages} name={server.name} />
          </Block>
          <Block title={t('server.page.reviews', { count: server.reviewsTotal })}>
            <ServerReviews serverId={server.id} first={server.reviews} total={server.reviewsTotal} />
          </Block>
        </div>
      </div>
    </div>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-lg font-bold">{title}</h2>
      {children}
    </section>
  );
}

function ServerPageSkeleton() {
  const { t } = useT();
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8" aria-busy="true" aria-label={t('server.page.loading')}>
      <Skeleton className="aspect-[3/1] max-h-72 w-full" />
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <Skeleton className="h-96" />
        <Skeleton className="h-48" />
      </div>
    </div>
  );
}
