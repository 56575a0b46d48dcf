import { useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import { EmptyState } from '../../../components/empty-state';
import { Skeleton } from '../../../components/skeleton';
import { useMessageText } from '../../../i18n/messages';
import { useT } from '../../../i18n/use-t';
import { useServerList } from '../api/list-servers';
import { ServerRow } from './server-row';

const TABS = [
  { id: 'hot', label: 'browse.list.hot', sort: 'hot', blurb: 'browse.list.hotBlurb' },
  { id: 'popular', label: 'browse.list.popular', sort: 'popular', blurb: 'browse.list.popularBlurb' },
] as const;

/** `/list`: Hot and Most Popular tabs, 10 servers each; the tab is in the URL (`?tab=popular`). */
export function ListPage() {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const current = TABS.find((tab) => tab.id === params.get('tab')) ?? TABS[0];
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const select = (index: number) => {
    const tab = TABS[index];
    if (!tab) return;
    setParams(tab.id === 'hot' ? {} : { tab: tab.id }, { replace: true });
    tabRefs.current[index]?.focus();
  };
  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  const onKeyDown = (event: KeyboardEvent) => {
    const at = TABS.indexOf(current);
    if (event.key === 'ArrowRight') select((at + 1) % TABS.length);
    if (event.key === 'ArrowLeft') select((at - 1 + TABS.length) % TABS.length);
  };

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8">
      <header>
        <h1 className="text-3xl font-black tracking-tight text-white">{t('browse.list.title')}</h1>
        <p className="mt-1 text-slate-300">{t('browse.list.intro')}</p>
      </header>
      <div
        role="tablist"
        aria-label={t('browse.list.tabsLabel')}
        className="flex gap-1 self-start rounded-xl border border-white/10 bg-ink-900 p-1"
        onKeyDown={onKeyDown}
      >
        {TABS.map((tab, i) => {
          const selected = tab.id === current.id;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                tabRefs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={selected}
              // Only the selected tab's panel is drawn: the others control nothing yet.
              aria-controls={selected ? `panel-${tab.id}` : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(i)}
              className={`rounded-lg px-4 py-2 text-sm font-semibold transition ${selected ? 'bg-gradient-to-r from-brand-600 to-accent-500 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'}`}
            >
              {t(tab.label)}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`panel-${current.id}`} aria-labelledby={`tab-${current.id}`} className="flex flex-col gap-3">
        <p className="text-sm text-slate-400">{t(current.blurb)}</p>
        <RankedList key={current.id} sort={current.sort} />
      </div>
    </div>
  );
}

function RankedList({ sort }: { sort: 'hot' | 'popular' }) {
  const { t } = useT();
  const messageText = useMessageText();
  const { data, isPending, isError } = useServerList({ sort, limit: LIMITS.listTab });
  if (isPending) {
    return (
      <div className="flex flex-col gap-3" aria-hidden="true">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
    );
  }
  if (isError)
    return (
      <p role="alert" className="text-sm text-red-300">
        {messageText(MSG.loadServersFailed)}
      </p>
    );
  if (data.servers.length === 0) {
    return (
      <EmptyState title={t('browse.common.nothingYet')}>
        {sort === 'hot' ? t('browse.list.hotEmpty') : t('browse.list.popularEmpty')}
      </EmptyState>
    );
  }
  return (
    <ol className="flex flex-col gap-3" data-testid="ranked-list">
      {data.servers.map((s, i) => (
        <li key={s.id}>
          <ServerRow server={s} rank={i + 1} />
        </li>
      ))}
    </ol>
  );
}
