import type { Locale } from '../../../shared/i18n/locales';
import type english from './en/index';

/** Every message the web app shows, by id: the English catalog is the list of them. */
export type MessageId = keyof typeof english;
/** A catalog as it is stored: ICU MessageFormat text by message id. */
export type RawCatalog = Readonly<Record<string, string>>;

/**
 * Each language's catalog, loaded on demand: in the browser a chunk of its own per language (the
 * build compiles its messages, see scripts/lib/catalogs.mjs), so a visitor downloads only theirs.
 */
export const CATALOG_LOADERS: Record<Locale, () => Promise<{ default: object }>> = {
  en: () => import('./en/index'),
  'pt-BR': () => import('./pt-BR/index'),
  es: () => import('./es/index'),
  fr: () => import('./fr/index'),
  de: () => import('./de/index'),
  pl: () => import('./pl/index'),
  tr: () => import('./tr/index'),
};
