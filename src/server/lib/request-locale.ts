import type { IncomingHttpHeaders } from 'node:http';
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALE_PARAM, matchLocale, negotiateLocale, type Locale } from '../../shared/i18n/locales';

/** A page's language and whether its URL pinned it (`?lang=`), which then is the only thing it varies by. */
export interface RequestLocale {
  locale: Locale;
  pinned: boolean;
  /** Whether the request said anything about its language (else `locale` is the default). */
  asked: boolean;
}

const COOKIE = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`);
const PARAM = new RegExp(`[?&]${LOCALE_PARAM}=([^&#]*)`);

/** Accept-Language headers seen lately and their language: browsers send a handful of spellings. */
const negotiated = new Map<string, Locale | null>();
const NEGOTIATED_MAX = 500;

function fromAcceptLanguage(header: string | undefined): Locale | null {
  if (!header) return null;
  let locale = negotiated.get(header);
  if (locale === undefined) {
    locale = negotiateLocale(header);
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(header, locale);
  }
  return locale;
}

/**
 * The language a page is sent in (docs/decisions/054-languages.md): pinned by `?lang=` in the URL,
 * else the device's choice (the `rp_lang` cookie, which a signed-in user's saved choice also sets),
 * else the browser's `Accept-Language`, else English.
 */
export function requestLocale(url: string, headers: IncomingHttpHeaders): RequestLocale {
  const param = url.includes('?') ? PARAM.exec(url)?.[1] : undefined;
  const pinned = param !== undefined ? matchLocale(safeDecode(param)) : null;
  if (pinned) return { locale: pinned, pinned: true, asked: true };
  const cookie = headers.cookie ? COOKIE.exec(headers.cookie)?.[1] : undefined;
  const chosen = cookie !== undefined ? matchLocale(safeDecode(cookie)) : null;
  const accepted = chosen ?? fromAcceptLanguage(headers['accept-language']);
  return { locale: accepted ?? DEFAULT_LOCALE, pinned: false, asked: accepted !== null };
}

/** The language a request asked for, or null when it asked for none of the site's (nothing to save). */
export function askedLocale(url: string, headers: IncomingHttpHeaders): Locale | null {
  const found = requestLocale(url, headers);
  return found.asked ? found.locale : null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}
