import { DEFAULT_LOCALE, LOCALE_PARAM, isLocale } from '../../shared/i18n/locales';
import type { ServerTranslate } from './translate';

/** An e-mail's text: the greeting by username, a blank line, the body. */
export function mailText(t: ServerTranslate, username: string, body: string): string {
  return `${t('email.greeting', { username })}\n\n${body}`;
}

/**
 * `&lang=…` for a link mailed to a user who chose a language other than English, so the page it
 * opens is in the mail's language on any device; nothing otherwise (the link as before).
 */
export function langParam(locale: string | null | undefined): string {
  return isLocale(locale) && locale !== DEFAULT_LOCALE ? `&${LOCALE_PARAM}=${encodeURIComponent(locale)}` : '';
}
