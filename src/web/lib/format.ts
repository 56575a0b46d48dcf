import { currentFormatLocale } from '../i18n/runtime';

/**
 * A formatter made on first use: each `Intl` constructor loads locale data, which on a slow phone
 * costs tens of milliseconds at start-up for formats the page may never show.
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const usd = onFirstUse(() => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }));
const usdWhole = onFirstUse(() => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }));

/** Prices are US dollars, written as the price list writes them ("$10") in every locale. A dollar amount of the API (`3.75`, `10`) as `$3.75` or `$10`: whole dollars drop the cents. */
export function formatUsd(dollars: number): string {
  return Number.isInteger(dollars) ? usdWhole().format(dollars) : usd().format(dollars);
}

/**
 * Formatters in the page's language (docs/decisions/054-languages.md), made on first use per
 * language and options: each `Intl` constructor loads locale data, tens of milliseconds on a phone.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

export function numberFormat(options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${currentFormatLocale()}|${JSON.stringify(options ?? {})}`;
  let made = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!made) formatters.set(key, (made = new Intl.NumberFormat(currentFormatLocale(), options)));
  return made;
}

export function dateFormat(options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${currentFormatLocale()}|${JSON.stringify(options ?? {})}`;
  let made = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!made) formatters.set(key, (made = new Intl.DateTimeFormat(currentFormatLocale(), options)));
  return made;
}

/** A count in the page's language: 12,345 in English, 12.345 in Deutsch. */
export function formatNumber(n: number): string {
  return numberFormat().format(n);
}

const day = () => dateFormat({ weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** A `YYYY-MM-DD` day as a UTC midnight date, or null when it is not one. */
export function utcDay(isoDay: string): Date | null {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- an ISO time of day, not text
  const date = new Date(`${isoDay.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A booked weekend (its Friday, `YYYY-MM-DD`) as Friday to Sunday: "Fri, Mar 13 – Sun, Mar 15, 2026".
 * Weekends run Friday 00:00 to Sunday 24:00 UTC, so the dates are UTC dates.
 */
export function formatWeekend(friday: string): string {
  const start = utcDay(friday);
  if (!start) return friday;
  const sunday = new Date(start.getTime() + 2 * 86_400_000);
  return day().formatRange(start, sunday);
}

/** Which weekend a weekend is, by its Friday. A code, not text: the page shows a sentence of its own for each. */
export type WeekendRelation = 'this weekend' | 'next weekend';
const THIS_WEEKEND: WeekendRelation = 'this weekend';
const NEXT_WEEKEND: WeekendRelation = 'next weekend';

/** "this weekend", "next weekend" or null, for a weekend given by its Friday. */
export function weekendRelation(friday: string, now = new Date()): WeekendRelation | null {
  const start = utcDay(friday);
  if (!start) return null;
  const end = start.getTime() + 3 * 86_400_000;
  if (now.getTime() >= start.getTime() && now.getTime() < end) return THIS_WEEKEND;
  if (start.getTime() > now.getTime() && start.getTime() - now.getTime() <= 7 * 86_400_000) return NEXT_WEEKEND;
  return null;
}

const dateTime = () => dateFormat({ dateStyle: 'medium' });

/** An ISO timestamp as a short date in the page's language ("Mar 13, 2026" in en-US). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime().format(date);
}
