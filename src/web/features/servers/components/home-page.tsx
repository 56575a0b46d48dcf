import type { ReactNode } from 'react';
import { MSG } from '../../../../shared/messages';
import type { Server } from '../../../../shared/schemas/server';
import { ButtonLink } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { useMessageText } from '../../../i18n/messages';
import { T, useT } from '../../../i18n/use-t';
import { useJustJoined } from '../api/get-just-joined';
import { useServerOfTheWeekend } from '../api/get-server-of-the-weekend';
import { HOME_TOP, useServerList } from '../api/list-servers';
import { PageSection } from './page-section';
import { CarouselSkeleton, ServerCarousel } from './server-carousel';
import { WeekendCard } from './weekend-card';

/** `/home`: search, new servers (joined the list in the last 24 h), the Server of the Weekend and the top 10 by likes. */
export function HomePage() {
  const { t } = useT();
  const justJoined = useJustJoined();
  const top = useServerList(HOME_TOP);
  const weekend = useServerOfTheWeekend();
  // The three rows appear together: one landing before the others would change its height from
  // its skeleton's and push the rows below it down (a layout shift).
  const waiting = justJoined.isPending || top.isPending || weekend.isPending;
  // Only what is drawn is read from the queries (never spread): react-query then tells this page of
  // those changes alone, not of every background refresh starting and ending.
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-10 px-4 py-8 sm:py-12">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-black tracking-tight text-white sm:text-4xl">
            <T id="browse.home.title" components={{ accent: <span className="text-gradient" /> }} />
          </h1>
          <p className="mt-2 text-slate-300">{t('browse.home.intro')}</p>
        </div>
        <ButtonLink to="/search" className="self-start sm:self-auto">
          <svg viewBox="0 0 20 20" className="size-4" aria-hidden="true">
            <circle cx="9" cy="9" r="6" stroke="currentColor" strokeWidth="2" fill="none" />
            <path d="M13.5 13.5L18 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          {t('browse.home.search')}
        </ButtonLink>
      </header>

      <PageSection id="just-joined" title={t('browse.home.newTitle')} description={t('browse.home.newDescription')}>
        <CarouselState query={{ data: justJoined.data, isError: justJoined.isError, isPending: waiting }} empty={t('browse.home.newEmpty')}>
          {(servers) => <ServerCarousel servers={servers} label={t('browse.home.newTitle')} testId="just-joined" eagerCount={2} />}
        </CarouselState>
      </PageSection>

      <PageSection id="weekend" title={t('browse.home.weekendTitle')}>
        <WeekendCard waiting={waiting} />
      </PageSection>

      <PageSection
        id="top-10"
        title={t('browse.home.topTitle')}
        action={
          <ButtonLink to="/list?tab=popular" variant="ghost" className="px-3 py-1.5">
            {t('browse.home.topAction')}
          </ButtonLink>
        }
      >
        <CarouselState query={{ data: top.data?.servers, isError: top.isError, isPending: waiting }} empty={t('browse.home.topEmpty')}>
          {(servers) => <ServerCarousel servers={servers} label={t('browse.home.topLabel')} testId="top-10" numbered />}
        </CarouselState>
      </PageSection>
    </div>
  );
}

function CarouselState({
  query,
  empty,
  children,
}: {
  query: { data: Server[] | undefined; isPending: boolean; isError: boolean };
  empty: string;
  children: (servers: Server[]) => ReactNode;
}) {
  const { t } = useT();
  const messageText = useMessageText();
  if (query.isPending) return <CarouselSkeleton />;
  if (query.isError || !query.data)
    return (
      <p role="alert" className="text-sm text-red-300">
        {messageText(MSG.loadServersFailed)}
      </p>
    );
  if (query.data.length === 0) return <EmptyState title={t('browse.common.nothingYet')}>{empty}</EmptyState>;
  return <>{children(query.data)}</>;
}
