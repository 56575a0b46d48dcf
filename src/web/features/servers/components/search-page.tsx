import { useEffect, useState, type FormEvent } from 'react';
import { LIMITS } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import type { Sort } from '../../../../shared/schemas/server';
import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { SelectField } from '../../../components/select-field';
import { Skeleton } from '../../../components/skeleton';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useFilterLabels } from '../../../i18n/filter-label';
import { useMessageText } from '../../../i18n/messages';
import { useT, type Translate } from '../../../i18n/use-t';
import { formatNumber } from '../../../lib/format';
import { useFilterCategories } from '../api/get-filter-categories';
import { useServerList } from '../api/list-servers';
import { SEARCH_PAGE_SIZE, searchListParams, useSearchQuery } from '../hooks/use-search-query';
import { FilterChips } from './filter-chips';
import { LiveToggles, PlayerRange } from './live-filters';
import { ServerRow } from './server-row';
import { Segmented } from '../../../components/segmented';
import { useResultsView } from '../hooks/use-results-view';
import { Pagination } from '../../../components/pagination';
import { ServerCard, ServerCardSkeleton } from './server-card';

const PAGE_SIZE = SEARCH_PAGE_SIZE;
/**
 * Cards whose pictures load at once: the first results are on screen on arrival (the largest paint
 * of a phone's first view is the first card's banner), as on /home.
 */
const EAGER_CARDS = 2;
/** Typing searches once the player pauses this long. */
const TYPE_DELAY_MS = 300;
/** The sort orders, each with its label's message id (translated where drawn). */
export const SORT_OPTIONS: ReadonlyArray<{ value: Sort; label: MessageId }> = [
  { value: 'likes', label: 'browse.search.sortLikes' },
  { value: 'popular', label: 'browse.search.sortPopular' },
  { value: 'hot', label: 'browse.search.sortHot' },
  { value: 'new', label: 'browse.search.sortNew' },
  { value: 'players', label: 'browse.search.sortPlayers' },
  { value: 'joins', label: 'browse.search.sortJoins' },
];

/**
 * `/search`: name search as you type, live state (online, free slots, player range), category
 * filters and sort, with the whole query in the URL.
 */
export function SearchPage() {
  const { t } = useT();
  const messageText = useMessageText();
  const label = useFilterLabels();
  const [query, setQuery] = useSearchQuery();
  const [text, setText] = useState(query.q);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [view, setView] = useResultsView();
  const categories = useFilterCategories();
  const results = useServerList(searchListParams(query));
  // Back and Forward change the URL under the box: show what is searched (but keep a space being typed).
  const [shownQ, setShownQ] = useState(query.q);
  if (shownQ !== query.q) {
    setShownQ(query.q);
    if (text.trim() !== query.q) setText(query.q);
  }
  // Search as you type: the URL follows the box once typing pauses, replacing the entry (one per search, not per letter).
  useEffect(() => {
    if (text.trim() === query.q) return;
    const timer = setTimeout(() => setQuery({ q: text }, { replace: true }), TYPE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, query.q, setQuery]);
  const rangeSet = query.minPlayers !== undefined || query.maxPlayers !== undefined;
  const activeFilters = query.filters.length + (rangeSet ? 1 : 0);

  const total = results.data?.total ?? 0;
  // Past a few thousand matches the server stops counting: "2,000+ servers".
  const shownTotal = results.data?.capped ? `${formatNumber(total)}+` : String(total);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const toggle = (filter: string) =>
    setQuery({ filters: query.filters.includes(filter) ? query.filters.filter((f) => f !== filter) : [...query.filters, filter] });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== query.q) setQuery({ q: text });
  };
  const clearAll = () => {
    setText('');
    setQuery({ q: '', filters: [], online: false, freeSlots: false, minPlayers: undefined, maxPlayers: undefined });
  };
  const anythingSet = query.filters.length > 0 || query.q !== '' || query.online || query.freeSlots || rangeSet;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8">
      <header>
        <h1 className="text-3xl font-black tracking-tight text-white">{t('browse.search.title')}</h1>
        <p className="mt-1 text-slate-300">{t('browse.search.intro')}</p>
      </header>

      <form role="search" onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <label htmlFor="search-q" className="text-sm font-medium text-slate-200">
            {t('browse.search.nameLabel')}
          </label>
          <input
            id="search-q"
            type="search"
            value={text}
            maxLength={LIMITS.serverName}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('browse.search.namePlaceholder')}
            className="rounded-xl border border-white/10 bg-ink-950/70 px-3.5 py-2.5 text-slate-100 placeholder:text-slate-500 focus:border-brand-400 focus:outline-none"
          />
        </div>
        <Button type="submit">{t('browse.search.submit')}</Button>
        <SelectField
          label={t('browse.search.sortLabel')}
          value={query.sort}
          options={SORT_OPTIONS.map((option) => ({ value: option.value, label: t(option.label) }))}
          onChange={(e) => setQuery({ sort: e.target.value as Sort })}
          className="sm:w-56"
        />
      </form>
      <LiveToggles online={query.online} freeSlots={query.freeSlots} onChange={(change) => setQuery(change)} />

      <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
        <aside className="flex flex-col gap-3">
          <Button
            variant="secondary"
            className="lg:hidden"
            aria-expanded={filtersOpen}
            aria-controls="search-filters"
            onClick={() => setFiltersOpen((v) => !v)}
          >
            {activeFilters ? t('browse.search.filtersCount', { count: activeFilters }) : t('browse.search.filters')}
            <span aria-hidden="true" className="ml-1.5">
              {filtersOpen ? '▴' : '▾'}
            </span>
          </Button>
          <div
            id="search-filters"
            className={`${filtersOpen ? 'block' : 'hidden'} rounded-2xl border border-white/10 bg-ink-900/80 p-4 lg:sticky lg:top-20 lg:block lg:max-h-[calc(100dvh-6rem)] lg:overflow-y-auto`}
          >
            <h2 className="mb-3 font-semibold text-white">{t('browse.search.filters')}</h2>
            <div className="mb-4">
              <PlayerRange min={query.minPlayers} max={query.maxPlayers} onChange={(change) => setQuery(change, { replace: true })} />
            </div>
            {categories.isPending ? (
              <div className="flex flex-col gap-2">
                <Skeleton className="h-6 w-1/2" />
                <Skeleton className="h-16" />
                <Skeleton className="h-16" />
              </div>
            ) : categories.isError ? (
              <p role="alert" className="text-sm text-red-300">
                {t('browse.search.filtersFailed')}
              </p>
            ) : (
              <FilterChips categories={categories.data} selected={query.filters} onToggle={toggle} />
            )}
          </div>
        </aside>

        <section aria-labelledby="results-heading" className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="results-heading" className="mr-2 text-sm text-slate-300" aria-live="polite">
              {results.isPending
                ? t('browse.search.searching')
                : results.isError
                  ? ''
                  : t('browse.search.total', { count: total, total: shownTotal })}
            </h2>
            {query.filters.map((f) => (
              <button
                key={f}
                type="button"
                onClick={() => toggle(f)}
                className="inline-flex items-center gap-1 rounded-full border border-brand-400/50 bg-brand-500/15 px-2.5 py-0.5 text-xs text-white hover:bg-brand-500/30"
                aria-label={t('browse.search.removeFilter', { filter: label.filter(f) })}
              >
                {label.filter(f)} <span aria-hidden="true">×</span>
              </button>
            ))}
            {rangeSet ? (
              <button
                type="button"
                onClick={() => setQuery({ minPlayers: undefined, maxPlayers: undefined })}
                className="inline-flex items-center gap-1 rounded-full border border-brand-400/50 bg-brand-500/15 px-2.5 py-0.5 text-xs text-white hover:bg-brand-500/30"
                aria-label={t('browse.search.removeRange')}
              >
                {playerRangeLabel(t, query.minPlayers, query.maxPlayers)} <span aria-hidden="true">×</span>
              </button>
            ) : null}
            {anythingSet ? (
              <button type="button" onClick={clearAll} className="text-xs text-brand-400 hover:underline">
                {t('browse.search.clearAll')}
              </button>
            ) : null}
            <div className="ml-auto">
              <Segmented
                label={t('browse.search.viewLabel')}
                options={[
                  { value: 'cards', label: t('browse.search.viewCards') },
                  { value: 'list', label: t('browse.search.viewList') },
                ]}
                value={view}
                onChange={setView}
              />
            </div>
          </div>

          {results.isError ? (
            <p role="alert" className="text-sm text-red-300">
              {messageText(MSG.loadServersFailed)}
            </p>
          ) : results.isPending ? (
            <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-hidden="true">
              {Array.from({ length: 6 }, (_, i) => (
                <li key={i}>
                  <ServerCardSkeleton />
                </li>
              ))}
            </ul>
          ) : results.data.servers.length === 0 ? (
            <EmptyState
              title={t('browse.search.emptyTitle')}
              action={
                <Button variant="secondary" onClick={clearAll}>
                  {t('browse.search.clearSearch')}
                </Button>
              }
            >
              {query.online || query.freeSlots || rangeSet ? t('browse.search.emptyLive') : t('browse.search.emptyHint')}
            </EmptyState>
          ) : view === 'list' ? (
            <ol
              data-testid="search-results"
              data-view="list"
              aria-busy={results.isPlaceholderData}
              className={`flex flex-col gap-2 ${results.isPlaceholderData ? 'opacity-60' : ''}`}
            >
              {results.data.servers.map((s, i) => (
                <li key={s.id}>
                  <ServerRow server={s} rank={(query.page - 1) * PAGE_SIZE + i + 1} compact />
                </li>
              ))}
            </ol>
          ) : (
            <ul
              data-testid="search-results"
              data-view="cards"
              aria-busy={results.isPlaceholderData}
              className={`grid gap-4 sm:grid-cols-2 xl:grid-cols-3 ${results.isPlaceholderData ? 'opacity-60' : ''}`}
            >
              {results.data.servers.map((s, i) => (
                <li key={s.id}>
                  <ServerCard server={s} className="h-full" eager={i < EAGER_CARDS} />
                </li>
              ))}
            </ul>
          )}
          <Pagination
            page={query.page}
            pages={pages}
            onPage={(page) => {
              setQuery({ ...query, page });
              window.scrollTo({ top: 0 });
            }}
          />
        </section>
      </div>
    </div>
  );
}

/** "10–50 players", "10+ players", "up to 50 players". */
function playerRangeLabel(t: Translate, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return t('browse.search.rangeBetween', { min: formatNumber(min), max });
  if (min !== undefined) return t('browse.search.rangeFrom', { min });
  return t('browse.search.rangeUpTo', { max: max ?? 0 });
}
