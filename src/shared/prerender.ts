import type { Locale } from './i18n/locales';

/**
 * The contract between the server and the web build's page renderer (docs/decisions/042-server-rendered-pages.md):
 * the server asks which API answers a path's page needs, fetches them itself, and has the page
 * rendered from them; the same answers travel in the HTML so the app starts from them.
 */

/** One API answer a page is rendered from: its JSON body and the headers the web app reads. */
export interface PageAnswer {
  data: unknown;
  headers: Record<string, string>;
}

/** API path (with its query) → answer. */
export type PageAnswers = Record<string, PageAnswer>;

/** The headers of an answer the web app reads besides its body (the totals of a paged list). */
export const PAGE_ANSWER_HEADERS = ['x-total-count', 'x-total-capped'] as const;

/**
 * What the web build's `render.js` exports. A location is a path with the part of its query string
 * the page draws from (`/list?tab=popular`): what a rendering and its cache entry stand for.
 */
export interface PageRenderer {
  /** The location a request's URL is rendered as; `null` when that page is not rendered on the server. */
  locationFor(url: string): string | null;
  /** The API paths (GET, anonymous) the page at `location` is rendered from; `null` when it is not rendered. */
  requestsFor(location: string): string[] | null;
  /**
   * The page's markup for `#root`, rendered from `answers` with the clock at `renderedAt` (ms since
   * the epoch, what "2 minutes ago" counts from) in `locale`; throws when an answer does not parse.
   */
  renderPage(location: string, answers: PageAnswers, renderedAt: number, locale: Locale): Promise<string>;
}

/** The element ids the server writes and the app reads. */
export const PRERENDER_IDS = { answers: 'rp-answers', boot: 'rp-boot' } as const;

/**
 * The attribute of the answers' element with the time the page was rendered at (ms since the
 * epoch): the app hydrates with that clock, so times drawn relative to now match the markup.
 */
export const RENDERED_AT_ATTRIBUTE = 'data-rendered-at';
