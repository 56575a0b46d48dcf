import { UI_TIMING } from '../../../../shared/limits';
import type { Server } from '../../../../shared/schemas/server';
import { useReducedMotion } from '../../../lib/use-reduced-motion';
import { ServerCard, ServerCardSkeleton } from './server-card';

/** Below this many cards a loop would show the same few twice side by side: they just sit in a row. */
const MIN_TO_ANIMATE = 4;
const CARD = 'w-64 shrink-0 sm:w-72';

/**
 * A row of server cards that scrolls in a {@link UI_TIMING.carouselLoopSeconds} s loop, pausing
 * while hovered or while a card has keyboard focus. Under prefers-reduced-motion (or with few
 * servers) it is a plain row that scrolls sideways by hand.
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
  const reduced = useReducedMotion();
  const animate = !reduced && servers.length >= MIN_TO_ANIMATE;

  if (!animate) {
    return (
      <div data-testid={testId} data-animated="false" className="-mx-4 overflow-x-auto px-4 pb-3 [scrollbar-width:thin]">
        <ul aria-label={label} className="flex w-max gap-4">
          {servers.map((s, i) => (
            <li key={s.id} className={CARD}>
              <ServerCard server={s} className="h-full" eager={i < eagerCount} position={numbered ? i + 1 : undefined} />
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <div
      data-testid={testId}
      data-animated="true"
      className="group -mx-4 overflow-hidden px-4 pb-3 [mask-image:linear-gradient(90deg,transparent,black_2rem,black_calc(100%-2rem),transparent)]"
    >
      <div
        data-carousel-track
        className="flex w-max animate-marquee group-focus-within:[animation-play-state:paused] group-hover:[animation-play-state:paused]"
        style={{ animationDuration: `${UI_TIMING.carouselLoopSeconds}s` }}
      >
        <ul aria-label={label} className="flex gap-4 pr-4">
          {servers.map((s, i) => (
            <li key={s.id} className={CARD}>
              <ServerCard server={s} className="h-full" eager={i < eagerCount} position={numbered ? i + 1 : undefined} />
            </li>
          ))}
        </ul>
        {/* The second copy only closes the loop: hidden from screen readers and the tab order. */}
        <ul aria-hidden="true" inert className="flex gap-4 pr-4">
          {servers.map((s, i) => (
            <li key={s.id} className={CARD}>
              <ServerCard server={s} className="h-full" tabIndex={-1} position={numbered ? i + 1 : undefined} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

export function CarouselSkeleton() {
  return (
    <div className="-mx-4 flex gap-4 overflow-hidden px-4 pb-3" aria-hidden="true">
      {Array.from({ length: 4 }, (_, i) => (
        <ServerCardSkeleton key={i} className={CARD} />
      ))}
    </div>
  );
}
