import { LOCALE_COOKIE, type Locale } from '../../shared/i18n/locales';

/**
 * Remembers a visitor's language on the device: a cookie, so the server renders the next page in
 * it. Its own module without Lingui, so the landing page's small script can use it.
 */
export function rememberLocale(locale: Locale): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
