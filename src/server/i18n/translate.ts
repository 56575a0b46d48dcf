import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../shared/i18n/locales';
import { SERVER_CATALOGS, type ServerMessageId } from './catalogs/index';

export type ServerValues = Record<string, string | number>;
/** A message of the server's catalogs in one language: `t('email.reset.subject')`. */
export type ServerTranslate = (id: ServerMessageId, values?: ServerValues) => string;

/** Each language's catalog compiled once, on first use (docs/decisions/054-languages.md). */
const instances = new Map<Locale, I18n>();

function instance(locale: Locale): I18n {
  let made = instances.get(locale);
  if (!made) {
    const messages: Messages = Object.fromEntries(Object.entries(SERVER_CATALOGS[locale]).map(([id, text]) => [id, compileMessage(text)]));
    made = setupI18n({ locale, messages: { [locale]: messages } });
    instances.set(locale, made);
  }
  return made;
}

/**
 * The server's words in a user's language: their saved choice, else English (an e-mail has no
 * browser to ask). A value that is not one of the site's languages is English too.
 */
export function serverT(locale: string | null | undefined): ServerTranslate {
  const i18n = instance(isLocale(locale) ? locale : DEFAULT_LOCALE);
  return (id, values) => i18n._(id, values);
}
