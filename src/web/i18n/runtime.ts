import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { DEFAULT_LOCALE, type Locale } from '../../shared/i18n/locales';

/**
 * The language numbers and dates are written in: the page's language. Set when a language is
 * activated (in the browser) or just before a page is rendered (on the server, where rendering is
 * synchronous, so one render never sees another's language).
 */
let formatLocale: Locale = DEFAULT_LOCALE;

export function currentFormatLocale(): Locale {
  return formatLocale;
}

export function setFormatLocale(locale: Locale): void {
  formatLocale = locale;
}

/** A Lingui instance holding one language's compiled catalog, active. */
export function createI18n(locale: Locale, messages: Messages): I18n {
  return setupI18n({ locale, messages: { [locale]: messages } });
}
