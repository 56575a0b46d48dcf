import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Server } from '../../../../shared/schemas/server';
import { useT } from '../../../i18n/use-t';
import { useReducedMotion } from '../../../lib/use-reduced-motion';
import { ServerCard, ServerCardSkeleton } from './server-card';
import { UnmeasuredPosition, unmeasuredRowClass } from './carousel-unmeasured';

/**
 * Whole cards per screen: one on a phone, up to four on a wide desktop. The gap is 1rem, so each
 * card is (width − gaps) / n and a page of the row never cuts a card in half.
 */
const CARD = 'shrink-0 snap-start basis-full sm:basis-[calc((100%-1rem)/2)] lg:basis-[calc((100%-2rem)/3)] xl:basis-[calc((100%-3rem)/4)]';

/** Where the row is scrolled to: which cards show, and whether it can move either way. */
interface RowState {
  first: number;
  last: number;
  atStart: boolean;
  atEnd: boolean;
}

/**
 * A row of server cards that never moves by itself (moving text cannot be read, and WCAG asks
 * that it can be stopped): it swipes on touch, snaps to whole cards, and has previous/next
 * buttons that page by one screen. See docs/decisions/035-home-carousels.md.
 */
export function ServerCarousel({
  servers,
  label,
  testId,
  eagerCount = 0,
  numbered = false,
}: {
  servers: readonly Server[];
  label: string;
  testId?: string;
  /** How many leading cards are visible on arrival: their images are not lazy. */
  eagerCount?: number;
  /** A ranking (Top 10): each card shows its place, #1 first. */
  numbered?: boolean;
}) {
  const { t } = useT();
  const listId = useId();
  const rowRef = useRef<HTMLUListElement>(null);
  const reduced = useReducedMotion();
  // `null` until measured (the server's rendering, and the page before the app has started): the
  // row is then drawn at its start for every screen width by the stylesheet alone
  // (carousel-unmeasured.tsx), so the paging row is in the HTML from the start, says what each
  // screen shows, and nothing below it moves when the app measures the row.
  const [row, setRow] = useState<RowState | null>(null);

  const frame = useRef(0);

  /** Reads the scroll position back into state: the buttons and the "1–4 of 10" follow it. */
  const read = useCallback(() => {
    frame.current = 0;
    const el = rowRef.current;
    if (!el) return;
    const items = Array.from(el.children) as HTMLElement[];
    const left = el.scrollLeft;
    const right = left + el.clientWidth;
    // A card counts as shown when most of it is on screen (snapping leaves at most a sliver).
    const shown = items.flatMap((item, i) => {
      const start = item.offsetLeft; // the list is positioned: offsets are within the scrolled row
      const mid = start + item.offsetWidth / 2;
      return mid >= left && mid <= right ? [i + 1] : [];
    });
    const next = { first: shown[0] ?? 1, last: shown.at(-1) ?? items.length, atStart: left <= 1, atEnd: right >= el.scrollWidth - 1 };
    // Same place, same state: a swipe fires scroll events every frame and the cards need not re-render.
    setRow((prev) =>
      prev && prev.first === next.first && prev.last === next.last && prev.atStart === next.atStart && prev.atEnd === next.atEnd
        ? prev
        : next,
    );
  }, []);

  /** At most one read a frame, however many scroll events arrive. */
  const measure = useCallback(() => {
    if (!frame.current) frame.current = requestAnimationFrame(read);
  }, [read]);

  // Measured before the first paint, so the buttons do not pop in and move the page.
  useLayoutEffect(() => {
    const el = rowRef.current;
    if (!el) return;
    read();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [read, measure, servers.length]);

  const page = (direction: 1 | -1) => {
    const el = rowRef.current;
    if (!el) return;
    el.scrollBy({ left: direction * el.clientWidth, behavior: reduced ? 'auto' : 'smooth' });
  };

  // The same elements from one render to the next: when the row's position changes (measured right
  // after the row mounts, which a hydrated page does synchronously), the cards are not drawn again.
  const cards = useMemo(
    () =>
      servers.map((s, i) => (
        <li key={s.id} className={CARD}>
          <ServerCard server={s} className="h-full" eager={i < eagerCount} position={numbered ? i + 1 : undefined} />
        </li>
      )),
    [servers, eagerCount, numbered],
  );

  const scrolls = row ? !(row.atStart && row.atEnd) : servers.length > 1;
  return (
    <div data-testid={testId} className="flex flex-col gap-3">
      <ul
        id={listId}
        ref={rowRef}
        aria-label={label}
        onScroll={measure}
        className="relative flex snap-x snap-mandatory gap-4 overflow-x-auto overscroll-x-contain pb-2 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
      >
        {cards}
      </ul>
      {scrolls ? (
        <div className={`flex items-center justify-end gap-2 ${row ? '' : unmeasuredRowClass(servers.length)}`}>
          <p className="mr-auto text-sm text-slate-400 tabular-nums" data-testid="carousel-position">
            {!row ? (
              <UnmeasuredPosition total={servers.length} />
            ) : row.first === row.last ? (
              t('browse.carousel.positionOne', { first: row.first, total: servers.length })
            ) : (
              t('browse.carousel.positionRange', { first: row.first, last: row.last, total: servers.length })
            )}
          </p>
          <ArrowButton
            label={t('browse.carousel.previous')}
            controls={listId}
            disabled={row?.atStart ?? true}
            onClick={() => page(-1)}
            direction={-1}
          />
          <ArrowButton
            label={t('browse.carousel.next')}
            controls={listId}
            disabled={row?.atEnd ?? false}
            onClick={() => page(1)}
            direction={1}
          />
        </div>
      ) : null}
    </div>
  );
}

/**
 * A 44 px round button that pages the row; greyed out at either end. `aria-disabled`, not
 * `disabled`: a button that became disabled under keyboard focus would drop the focus to the page.
 */
function ArrowButton({
  label,
  controls,
  disabled,
  onClick,
  direction,
}: {
  label: string;
  controls: string;
  disabled: boolean;
  onClick: () => void;
  direction: 1 | -1;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      aria-controls={controls}
      aria-disabled={disabled}
      onClick={disabled ? undefined : onClick}
      className="grid size-11 place-items-center rounded-full border border-white/15 bg-white/5 text-white transition hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-brand-400 aria-disabled:cursor-default aria-disabled:opacity-35 aria-disabled:hover:bg-white/5"
    >
      <svg viewBox="0 0 20 20" className="size-5" aria-hidden="true">
        <path
          d={direction === 1 ? 'M7.5 4.5L13 10l-5.5 5.5' : 'M12.5 4.5L7 10l5.5 5.5'}
          stroke="currentColor"
          strokeWidth="2"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}

export function CarouselSkeleton() {
  return (
    <div className="flex flex-col gap-3" aria-hidden="true">
      <div className="flex gap-4 overflow-hidden pb-2">
        {Array.from({ length: 4 }, (_, i) => (
          <ServerCardSkeleton key={i} className={CARD} />
        ))}
      </div>
      {/* Where the row's position and paging buttons go. */}
      <div className="h-11" />
    </div>
  );
}
