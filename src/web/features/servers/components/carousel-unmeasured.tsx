import { useT } from '../../../i18n/use-t';

/**
 * The cards a screen shows at each width (the row's card bases in server-carousel.tsx), each with
 * the classes that show a text at that width only.
 */
const SCREENS = [
  { cards: 1, className: 'sm:hidden' },
  { cards: 2, className: 'hidden sm:inline lg:hidden' },
  { cards: 3, className: 'hidden lg:inline xl:hidden' },
  { cards: 4, className: 'hidden xl:inline' },
] as const;

/** Hides the paging row from the width at which all of a row's cards fit on one screen (by the row's length). */
const ALL_FIT: Record<number, string> = { 0: 'hidden', 1: 'hidden', 2: 'sm:hidden', 3: 'lg:hidden', 4: 'xl:hidden' };

/** The paging row's classes before the row is measured: there at every width where the cards do not all fit. */
export function unmeasuredRowClass(total: number): string {
  return ALL_FIT[total] ?? '';
}

/**
 * "1 of 10" on a phone, "1–4 of 10" on a wide desktop: what a row at its start shows, before the
 * app has measured it (the server's rendering, and a rendered page before the app has started).
 * The widths are the stylesheet's, so the HTML is right at every one of them without a script.
 */
export function UnmeasuredPosition({ total }: { total: number }) {
  const { t } = useT();
  return (
    <>
      {SCREENS.filter(({ cards }) => cards < total).map(({ cards, className }) => (
        <span key={cards} className={className}>
          {cards === 1
            ? t('browse.carousel.positionOne', { first: 1, total })
            : t('browse.carousel.positionRange', { first: 1, last: cards, total })}
        </span>
      ))}
    </>
  );
}
