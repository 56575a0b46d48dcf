import type { Locale } from '../../../shared/i18n/locales';
import type english from './en/index';
import type englishManage from './en/manage';

/** Every message the web app shows, by id: the English catalog is the list of them. */
export type MessageId = keyof typeof english | keyof typeof englishManage;
/** A catalog as it is stored: ICU MessageFormat text by message id. */
export type RawCatalog = Readonly<Record<string, string>>;

type Loader = () => Promise<{ default: object }>;

/**
 * Each language's catalog, loaded on demand: in the browser a chunk of its own per language (the
 * build compiles its messages, see scripts/lib/catalogs.mjs), so a visitor downloads only theirs.
 * What every page may show comes first; the owners', payments' and admins' messages come with
 * their pages (docs/decisions/054-languages.md).
 */
export const CATALOG_LOADERS: Record<Locale, Loader> = {
  en: () => import('./en/index'),
  'pt-BR': () => import('./pt-BR/index'),
  es: () => import('./es/index'),
  fr: () => import('./fr/index'),
  de: () => import('./de/index'),
  pl: () => import('./pl/index'),
  tr: () => import('./tr/index'),
};

export const MANAGE_CATALOG_LOADERS: Record<Locale, Loader> = {
  en: () => import('./en/manage'),
  'pt-BR': () => import('./pt-BR/manage'),
  es: () => import('./es/manage'),
  fr: () => import('./fr/manage'),
  de: () => import('./de/manage'),
  pl: () => import('./pl/manage'),
  tr: () => import('./tr/manage'),
};
